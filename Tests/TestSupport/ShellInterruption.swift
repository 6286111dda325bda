import Foundation
import ModuleHost
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension ShellProcess {
    /// Starts app-shell in `workspace` with `input` written and standard input left open, waits until `ready()`
    /// (recording an issue if the shell exits or a minute passes first), sends `signal` and waits for the exit.
    ///
    /// With `mayEndFirst`, a shell that exits before `ready()` is no issue: the caller judges the trial.
    package static func interrupt(_ arguments: [String], in workspace: Workspace, input: String = "", output out: PipeBuffer = PipeBuffer(),
                           errors err: PipeBuffer = PipeBuffer(), started: (_ pid: Int32) -> Void = { _ in }, when ready: () -> Bool,
                           mayEndFirst: Bool = false, signal: Int32) async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try ShellProcess.makeProcess(arguments, in: workspace.url)
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        out.drain(stdout)
        err.drain(stderr)
        try process.run()
        started(process.processIdentifier)
        err.appended()
        defer { try? stdin.fileHandleForWriting.close() }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        // Poll with Task.sleep, not Thread.sleep: a blocked thread would starve other tests' tasks.
        let deadline = Date().addingTimeInterval(60)
        while !ready(), process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        if !ready(), !(mayEndFirst && !process.isRunning) {
            Issue.record("app-shell never became ready for signal \(signal); stderr: \(err.text)")
        }
        kill(process.processIdentifier, signal)
        // A deadline of its own for the exit, so a slow start (a sanitizer build on a busy machine) cannot eat it.
        let exitDeadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < exitDeadline { try await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)  // not SIGTERM: a shell that ignored one signal may ignore another
            Issue.record("app-shell did not exit after signal \(signal)")
        }
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        // Everything the shell wrote before it exited, up to the end of each pipe.
        await out.finished()
        await err.finished()
        return (process.terminationStatus, out.text, err.text)
    }
}

/// Bytes arriving on a pipe, read as they come on a thread of its own (which the end of the pipe ends), so the text
/// can be watched while the shell runs and is complete once ``finished()`` returns.
package final class PipeBuffer: Sendable {
    package init() {}

    private let data = Locked(Data())
    private let done = DispatchGroup()

    private let onAppend = Locked<(@Sendable (String) -> Void)?>(nil)

    package func append(_ chunk: Data) {
        data.withLock { $0.append(chunk) }
        appended()
    }

    /// Calls `action` with the text so far on the reading thread after each chunk (and on ``appended()``).
    package func whenAppended(_ action: @escaping @Sendable (String) -> Void) { onAppend.withLock { $0 = action } }

    package func appended() { onAppend.withLock { $0 }?(text) }
    package var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Starts reading `pipe` until its end.
    package func drain(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        done.enter()
        Thread { [done] in
            while case let chunk = handle.availableData, !chunk.isEmpty { self.append(chunk) }
            done.leave()
        }.start()
    }

    /// Waits until the pipe has ended, without blocking a thread of the cooperative pool.
    package func finished() async {
        await withCheckedContinuation { continuation in done.notify(queue: .global()) { continuation.resume() } }
    }
}
