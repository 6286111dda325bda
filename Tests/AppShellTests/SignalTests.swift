import ModuleHost
import Foundation
import TestSupport
import Testing

@testable import AppShell

/// SIGINT and SIGTERM shut the shell down in order, with the documented exit status, and never hang.
@Suite("app-shell signals")
struct SignalTests {
    /// Starts app-shell with standard input left open, waits until stdout contains `marker`, sends `signal`.
    private func interrupt(_ arguments: [String], manifest: String? = Workspace.demoManifest, after marker: String,
                           signal: Int32) async throws -> (status: Int32, stdout: String, stderr: String) {
        let out = PipeBuffer()
        return try await ShellProcess.interrupt(arguments, in: try Workspace(manifest: manifest), output: out,
                                   when: { out.text.contains(marker) }, signal: signal)
    }


    @Test func sigtermAtThePromptShutsDownWith143() async throws {
        let result = try await interrupt([], after: "total:", signal: SIGTERM)
        #expect(result.status == 143)
        #expect(result.stdout.contains("auth.restore-session"))
    }

    @Test func sigintAtThePromptShutsDownWith130() async throws {
        let result = try await interrupt([], after: "total:", signal: SIGINT)
        #expect(result.status == 130)
    }

    /// Every other signal whose default action ends the process (SIGHUP, a closed terminal, among them)
    /// shuts the shell down in order, as SIGTERM does, instead of killing it.
    @Test(arguments: [SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGPWR, SIGSTKFLT])
    func everyOtherSignalThatWouldEndTheShellShutsItDownAsSIGTERMDoes(signal: Int32) async throws {
        let result = try await interrupt(["--verbose"], after: "total:", signal: signal)
        #expect(result.status == 143, "\(result.stderr)")
        #expect(result.stderr.contains("unloaded com.modulehost.auth"), "shut down in order: \(result.stderr)")
    }
}

/// A signal at the first moment the shell stops dying of it is never lost. The shell used to catch signals with
/// dispatch sources, whose handlers dispatch installs on a thread of its own some time later, and to set `SIG_IGN`
/// until then: on Linux a signal in that window was discarded, and the shell ran on, deaf to it. Now ``Signals``
/// starts the thread that reacts to signals before it installs the handler that hands them over. And the handler
/// never enters the Swift runtime: it used to ask it for a tuple's type metadata, and a signal that came while the
/// signal thread held the runtime's lock for that same metadata deadlocked the shell (seen under Thread Sanitizer,
/// in 5 of about 225 trials on a loaded machine; in none of 450 after).
extension SignalTests {
    @Test func aSignalAtTheFirstMomentTheShellHandlesItIsNeverLost() async throws {
        let workspace = try Workspace()
        for trial in 0..<20 {
            let process = try ShellProcess.makeProcess([], in: workspace.url)
            let stdin = Pipe()
            process.standardInput = stdin
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            defer { try? stdin.fileHandleForWriting.close() }
            let pid = process.processIdentifier
            // A thread of its own watches the shell's signal dispositions as closely as it can, and sends SIGTERM
            // the moment the shell no longer dies of it: ignored (the old window) or caught.
            let sent = await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: Self.signalOnceNotDefault(pid, SIGTERM)) }
            }
            try #require(sent, "trial \(trial): app-shell never took SIGTERM from the default action")
            let exitDeadline = Date().addingTimeInterval(120)   // a deadlock guard: a loaded machine (this suite beside another) is slow
            while process.isRunning, Date() < exitDeadline { try await Task.sleep(for: .milliseconds(10)) }
            if process.isRunning {
                kill(pid, SIGKILL)
                Issue.record("trial \(trial): app-shell ran on for 120 s after a SIGTERM sent as it began handling it (the signal was lost)")
                return
            }
            #expect(process.terminationReason == .exit && process.terminationStatus == 143,
                    "trial \(trial): \(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)")
        }
    }

    /// Reads `/proc/<pid>/status` in a tight loop until the process (once it is app-shell, not the `sh` that
    /// executes it) ignores or catches `signal`, then sends it; false if that never happened within 120 s (a deadlock
    /// guard: a sanitizer build on a loaded machine starts slowly).
    private static func signalOnceNotDefault(_ pid: Int32, _ signal: Int32) -> Bool {
        let path = "/proc/\(pid)/status"
        let deadline = Date().addingTimeInterval(120)
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while Date() < deadline {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
            let count = read(descriptor, &buffer, buffer.count)
            close(descriptor)
            guard count > 0 else { return false }
            if ProcessStatus.appShellHandles(signal, status: String(decoding: buffer[..<count], as: UTF8.self)) {
                return kill(pid, signal) == 0
            }
        }
        return false
    }
}

/// A signal that comes as the input ends is the exit status. The end of input and the signal reach the shell by
/// two roads, and the end of input used to win when the signal thread ran late: the shell shut down in order but
/// exited 0 (16 of 100 trials on a loaded machine, and 4 or 5 of this test's 10; none since ``Signals/settle()``
/// waits for that thread). Every other trial runs a command first: a command's race used to remove the handler
/// that gives the status (13 of 20 such trials exited 0).
extension SignalTests {
    @Test func aSignalSentAsTheInputEndsIsTheExitStatus() async throws {
        let workspace = try Workspace()
        for trial in 0..<10 {
            let marker = trial.isMultiple(of: 2) ? "total:" : "Commands:"

            let out = PipeBuffer()
            let process = try ShellProcess.makeProcess([], in: workspace.url)
            let stdin = Pipe(), stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            out.drain(stdout)
            try process.run()
            if marker == "Commands:" { stdin.fileHandleForWriting.write(Data("help\n".utf8)) }
            let readyDeadline = Date().addingTimeInterval(60)   // a deadlock guard, not a measure
            while !out.text.contains(marker), process.isRunning, Date() < readyDeadline { try await Task.sleep(for: .milliseconds(10)) }
            try #require(out.text.contains(marker), "trial \(trial): app-shell never printed \(marker)")
            kill(process.processIdentifier, SIGTERM)
            try stdin.fileHandleForWriting.close()
            let exitDeadline = Date().addingTimeInterval(60)
            while process.isRunning, Date() < exitDeadline { try await Task.sleep(for: .milliseconds(10)) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                Issue.record("trial \(trial): app-shell did not exit")
                return
            }
            #expect(process.terminationReason == .exit && process.terminationStatus == 143,
                    "trial \(trial): \(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)")
        }
    }
}
