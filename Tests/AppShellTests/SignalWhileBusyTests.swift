import ModuleHost
import Foundation
import TestSupport
import Testing

@testable import AppShell

/// A signal that comes while the shell is busy ends it at once, with the signal's exit status: while it reads the
/// manifest, while it checks plugins, while shutdown gives the later startup phases their grace period (which a
/// one-shot command does not wait for).
@Suite("app-shell signals while it is busy")
struct SignalWhileBusyTests {
    /// A manifest of about 7 MB (under the 8 MiB limit) that takes a while to read: long enough for a signal to
    /// land while it is read, whatever the reader's speed.
    private static let slowManifest: String = {
        let entries = (0..<250_000).map { #"{"type": "Nope.Nope\#($0)"}"# }
        return #"{"modules": ["# + entries.joined(separator: ", ") + "]}"
    }()

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalWhileTheManifestIsReadEndsTheProgramAtOnce(signal: Int32) async throws {
        // Reading the manifest is synchronous; the signal must not wait for it to end (it used to give 65, not 130).
        // The read takes well under a second, so on a busy machine a signal can land after it ended, once the
        // manifest's problems are being reported: such a trial (its verdict exit 65, or an interruption of the
        // report) shows nothing and is tried again. A shell that ignores signals while reading is never
        // interrupted before a problem is reported, in any trial, and fails.
        for arguments in [["--verbose"], ["--verbose", "validate"], ["--verbose", "modules"], ["--verbose", "fact", "28"]] {
            var interrupted = false
            for _ in 0..<8 where !interrupted {
                let result = try await signalWhileReading(arguments, signal: signal)
                if result.stderr.contains("Nope.Nope") { continue }
                #expect(result.status == (signal == SIGTERM ? 143 : 130), "\(arguments): \(result.stderr.suffix(300))")
                #expect(result.stderr.contains("interrupted while reading the manifest"), "\(arguments)")
                interrupted = true
            }
            #expect(interrupted, "\(arguments): no signal ended the program while it read the manifest, in 8 trials")
        }
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalWhilePluginsAreCheckedEndsTheProgramAtOnce(signal: Int32) async throws {
        // Twenty entries pin a 500 MB library by checksum; each is hashed before anything else (seconds of work in
        // all). The signal lands while they are, and must end the program at once, not after the last one.
        let entries = (0..<20).map { _ in
            #"{"type": "Big.Module", "library": "plugins/big.so", "sha256": "\#(String(repeating: "0", count: 64))"}"#
        }
        let workspace = try Workspace(manifest: #"{"modules": ["# + entries.joined(separator: ", ") + "]}")
        let plugins = workspace.url.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        let library = plugins.appendingPathComponent("big.so").path
        let descriptor = open(library, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        #expect(ftruncate(descriptor, 500 << 20) == 0)
        close(descriptor)
        // A thread of its own watches the shell's descriptors and sends the signal once the shell holds the library
        // open: it is being checked. Should the checks all end first anyway (a busy machine can keep the watcher
        // off a core that long), the trial shows nothing (the checks' verdicts reported) and is tried again; a
        // shell that finishes the checks before it heeds the signal fails every trial.
        var interrupted = false
        for _ in 0..<5 where !interrupted {
            let watching = Locked(true)
            let sent = Locked(false)
            let result = try await ShellProcess.interrupt(["--verbose", "validate"], in: workspace,
                                             started: { pid in
                                                 Thread.detachNewThread {
                                                     while watching.withLock({ $0 }) {
                                                         if Self.holdsOpen(library, process: pid) {
                                                             kill(pid, signal)
                                                             sent.withLock { $0 = true }
                                                             return
                                                         }
                                                         sched_yield()
                                                     }
                                                 }
                                             },
                                             when: { sent.withLock { $0 } }, mayEndFirst: true, signal: signal)
            watching.withLock { $0 = false }
            if result.stderr.contains("the SHA-256 of") { continue }
            #expect(result.status == (signal == SIGTERM ? 143 : 130), "\(result.stderr.suffix(300))")
            #expect(result.stderr.contains("interrupted while reading the manifest"))
            interrupted = true
        }
        #expect(interrupted, "no signal ended the program while it checked the plugins, in 5 trials")
    }

    /// Whether `process` has `path` open (Linux: its descriptors in /proc).
    private static func holdsOpen(_ path: String, process: Int32) -> Bool {
        let folder = "/proc/\(process)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return descriptors.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)")) == path }
    }

    /// Runs app-shell on the slow manifest and sends `signal` as soon as it says it is reading it, from the thread
    /// that reads the marker (not from a polling task a busy test process could delay).
    private func signalWhileReading(_ arguments: [String], signal: Int32) async throws -> (status: Int32, stdout: String, stderr: String) {
        let workspace = try Workspace(manifest: Self.slowManifest)
        let err = PipeBuffer()
        let pid = Locked<Int32?>(nil)
        let sent = Locked(false)
        err.whenAppended { text in
            guard text.contains("reading "), let pid = pid.withLock({ $0 }) else { return }
            if sent.withLock({ value in defer { value = true }; return !value }) { kill(pid, signal) }
        }
        return try await ShellProcess.interrupt(arguments, in: workspace, errors: err,
                                   started: { started in pid.withLock { $0 = started } },
                                   when: { sent.withLock { $0 } }, signal: signal)
    }

    /// NumbersModule with its prime sieve (which ignores cancellation and takes seconds at this bound) moved to
    /// the phase after startup: it is still running when the shell shuts down.
    private static let slowLaterPhase = """
        {"modules": [{"type": "NumbersModule.NumbersModule", "config": {"primeTableBound": 268435456},
                      "operations": {"numbers.warm-primes": {"priority": "afterFirstFrame"}}}]}
        """

    @Test func aOneShotCommandExitsAsSoonAsItIsDone() async throws {
        // The demo manifest has operations in later phases, never released in one-shot use: they are cancelled, not
        // waited for (it used to take the whole grace period). Shown by what the shell reports, not by a clock.
        let workspace = try Workspace()
        let result = try await workspace.run(["--verbose", "fact", "28"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("28 is a perfect number"))
        #expect(!result.stderr.contains("for the later startup phases"), "one-shot use waited for the grace period")
    }

    /// With a command before `quit` too: the command's race used to replace the lifecycle's signal handler, so a
    /// signal after any command neither cut the grace period short nor gave the exit status (it exited 0, 5 s later).
    @Test(arguments: [SIGINT, SIGTERM], ["quit\n", "help\nquit\n"])
    func aSignalDuringShutdownGivesItsExitStatus(signal: Int32, input: String) async throws {
        // `quit` gives the later phase its grace period; a signal then cuts it short and is the exit status (it
        // used to exit 0).
        let workspace = try Workspace(manifest: Self.slowLaterPhase)
        // The grace period is 5 s: the signal is sent from the thread that reads the marker, not from a polling task
        // a busy test process could delay past it.
        let err = PipeBuffer()
        let pid = Locked<Int32?>(nil)
        let sent = Locked(false)
        err.whenAppended { text in
            guard text.contains("for the later startup phases"), let pid = pid.withLock({ $0 }) else { return }
            if sent.withLock({ value in defer { value = true }; return !value }) { kill(pid, signal) }
        }
        let result = try await ShellProcess.interrupt(["-q", "--verbose"], in: workspace, input: input, errors: err,
                                         started: { started in pid.withLock { $0 = started } },
                                         when: { sent.withLock { $0 } }, signal: signal)
        #expect(result.status == (signal == SIGTERM ? 143 : 130), "\(result.stderr)")
        #expect(result.stderr.contains("unloaded com.modulehost.numbers"), "shut down in order all the same")
    }
}
