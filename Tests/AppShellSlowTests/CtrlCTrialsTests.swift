import Foundation
import ModuleHost
import Testing
import TestSupport
import ModuleHostTesting

#if canImport(Glibc)
import Glibc
#endif

/// At the interactive prompt, Ctrl-C interrupts what is running and the shell goes on, whatever the
/// moment it lands; the app ends only on `quit` (or a second Ctrl-C for a command that ignores cancellation, or a
/// signal from outside), with echo on. Shown with the built `app-shell` on a pseudo-terminal, with a test plugin's
/// `slow` and `stubborn` commands (``SlowPlugin``).
@Suite("app-shell Ctrl-C at the prompt", .enabled(if: SlowLane.isRequested, SlowLane.reason))
struct CtrlCTrialsTests {
    private static let ctrlC = "\u{3}"
    /// The trials of ``ctrlCAtAnyMomentReturnsToThePrompt()``: a quarter each of the four kinds.
    static let trials = 200

    /// A workspace with AuthModule (alice, password `wonderland`) and the test plugin.
    private static func workspace() async throws -> Workspace {
        let library = try await SlowPlugin.shared.library()
        let workspace = try Workspace(manifest: """
            {"modules": [{"type": "AuthModule.AuthModule", "config": {"users": [{"username": "alice", "passwordHash": "$y$j9T$zv4vibxmtz7dU93dcmtBb0$dDa.LWc8n.rpvaxSYdg/Bus2kw1DnqtxQ3VvHODvuG0"}]}},
                         {"type": "GreeterPlugin.GreeterModule", "library": "plugins/libGreeterPlugin.so"}]}
            """)
        let plugins = workspace.url.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: library, to: plugins.appendingPathComponent("libGreeterPlugin.so"))
        return workspace
    }

    @Test(.timeLimit(.minutes(5)))
    func ctrlCAtAnyMomentReturnsToThePrompt() async throws {
        let workspace = try await Self.workspace()
        let shell = try TerminalSession(in: workspace.url)
        try await shell.expect("app-shell> ")
        var generator = SplitMix64(seed: 27)
        for trial in 0..<Self.trials {
            // 0 to 5 ms after Enter (or, in a quarter of the trials, after the slow command said it started).
            let delay = Duration.microseconds(Int.random(in: 0...5_000, using: &generator))
            switch trial % 4 {
            case 0, 1:
                shell.send("login alice\r", then: Self.ctrlC, after: delay)
            case 2:
                shell.send("slow\r", then: Self.ctrlC, after: delay)
            default:
                shell.send("slow\r")
                try await shell.expect("slow: started")
                shell.send("", then: Self.ctrlC, after: delay)
            }
            do {
                try await shell.expect("app-shell> ")
                // The shell reads the next line and runs it: nothing of the trial is left over.
                shell.send("whoami\r")
                try await shell.expect("Not logged in")
                try await shell.expect("app-shell> ")
            } catch {
                Issue.record("trial \(trial) (delay \(delay)): \(error)")
                return
            }
        }
        shell.send("quit\r")
        #expect(try await shell.exitStatus() == 0)
        #expect(shell.localModes & tcflag_t(ECHO | ISIG) == tcflag_t(ECHO | ISIG), "echo and the signal keys are on")
        #expect(shell.transcript.components(separatedBy: "Not logged in").count - 1 == Self.trials, "every trial ran")
        #expect(!shell.transcript.contains("slow: finished"), "no slow command ran to its end")
        let history = try String(contentsOf: workspace.url.appendingPathComponent(".app-shell/history"), encoding: .utf8)
        #expect(history.contains("login alice\n") && history.contains("slow\n"), "the interrupted lines are in the history")
    }

    /// Ctrl-D on an empty line always ends the shell, also when it comes the moment the prompt shows (before libedit
    /// makes the terminal raw, so the terminal keeps it as an end-of-file mark), after a Ctrl-C at the prompt or not.
    /// It used to be lost in about 1 of 50 such trials, and 1 of 5 on a loaded machine.
    @Test(.timeLimit(.minutes(10)))
    func ctrlDRightAfterThePromptAlwaysEndsTheShell() async throws {
        let workspace = try Workspace()
        for trial in 0..<200 {
            let shell = try TerminalSession(in: workspace.url)
            try await shell.expect("app-shell> ")
            if trial.isMultiple(of: 2) {
                shell.send("fact 28" + Self.ctrlC)
                try await shell.expect("^C")
                try await shell.expect("app-shell> ")
            }
            shell.send("\u{4}")
            let status: Int32
            do {
                status = try await shell.exitStatus(timeout: .seconds(60))
            } catch {
                Issue.record("trial \(trial): the shell did not end on Ctrl-D: \(error)")
                return
            }
            #expect(status == 0, "trial \(trial)")
        }
    }

    @Test func ctrlCCancelsARunningCommandAndSaysSo() async throws {
        let workspace = try await Self.workspace()
        let shell = try TerminalSession(in: workspace.url)
        try await shell.expect("app-shell> ")
        shell.send("slow\r")
        try await shell.expect("slow: started")
        shell.send(Self.ctrlC)
        try await shell.expect("\ninterrupted")
        try await shell.expect("app-shell> ")
        shell.send("quit\r")
        #expect(try await shell.exitStatus() == 0)
    }

    @Test func aCommandThatIgnoresCancellationIsReportedAndASecondCtrlCEndsTheShellWith130() async throws {
        let workspace = try await Self.workspace()
        let shell = try TerminalSession(in: workspace.url)
        try await shell.expect("app-shell> ")
        shell.send("stubborn\r")
        try await shell.expect("stubborn: started")
        shell.send(Self.ctrlC)
        try await shell.expect("'stubborn' is still running")
        shell.send(Self.ctrlC)
        #expect(try await shell.exitStatus() == 130)
        #expect(shell.localModes & tcflag_t(ECHO | ISIG) == tcflag_t(ECHO | ISIG), "echo and the signal keys are on")
    }

    @Test func sigintFromOutsideEndsTheInteractiveShellWith130() async throws {
        let workspace = try await Self.workspace()
        let shell = try TerminalSession(in: workspace.url)
        try await shell.expect("app-shell> ")
        shell.send("slow\r")
        try await shell.expect("slow: started")
        kill(shell.process, SIGINT)
        #expect(try await shell.exitStatus() == 130)
        #expect(shell.localModes & tcflag_t(ECHO) != 0)
    }

    /// Every signal whose default action ends the process, at the password prompt (echo off): the shell shuts down
    /// with 143 (130 for SIGINT) and echo is back on. SIGHUP, SIGALRM and SIGUSR1 used to kill it with echo off.
    @Test(arguments: [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF, SIGIO, SIGPWR])
    func aSignalAtThePasswordPromptShutsDownWithEchoOn(signal: Int32) async throws {
        let workspace = try Workspace()
        let shell = try TerminalSession(in: workspace.url)
        try await shell.expect("app-shell> ")
        shell.send("login alice\r")
        try await shell.expect("Password for alice: ")
        #expect(shell.localModes & tcflag_t(ECHO) == 0, "the password is read without echo")
        kill(shell.process, signal)
        #expect(try await shell.exitStatus() == (signal == SIGINT ? 130 : 143))
        #expect(shell.localModes & tcflag_t(ECHO | ISIG) == tcflag_t(ECHO | ISIG), "echo and the signal keys are back on")
    }

    /// A fault signal at the password prompt (echo off) still ends the process at once, by that signal, but the
    /// terminal is put back first: echo is on. It used to stay off. (The Swift runtime's crash report is off here:
    /// it takes tens of seconds on a debug build.)
    @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, "the sanitizer's runtime takes the fault signals itself"),
          arguments: [SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT])
    func aFaultSignalAtThePasswordPromptLeavesEchoOn(signal: Int32) async throws {
        let workspace = try Workspace()
        let shell = try TerminalSession(in: workspace.url, environment: ["SWIFT_BACKTRACE": "enable=no"])
        try await shell.expect("app-shell> ")
        shell.send("login alice\r")
        try await shell.expect("Password for alice: ")
        #expect(shell.localModes & tcflag_t(ECHO) == 0, "the password is read without echo")
        kill(shell.process, signal)
        #expect(try await shell.exitStatus() == 128 + signal, "the fault ends the process by its own signal")
        #expect(shell.localModes & tcflag_t(ECHO | ISIG) == tcflag_t(ECHO | ISIG), "echo and the signal keys are back on")
    }

    /// The same signals sent while the Swift runtime's crash report is on: the report's handler returns from a
    /// signal that was sent rather than raised by a fault, and the shell used to go on reading the password with
    /// echo on, so the password typed next was shown. Whatever that handler does, the process ends by the signal.
    @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, "the sanitizer's runtime takes the fault signals itself"),
          arguments: [SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT])
    func aFaultSignalAtThePasswordPromptEndsTheProcessWhenTheCrashReportIsOn(signal: Int32) async throws {
        let workspace = try Workspace()
        let shell = try TerminalSession(in: workspace.url,
                                        environment: ["SWIFT_BACKTRACE": "enable=yes,interactive=no,symbolicate=off"])
        try await shell.expect("app-shell> ")
        shell.send("login alice\r")
        try await shell.expect("Password for alice: ")
        kill(shell.process, signal)
        #expect(try await shell.exitStatus() == 128 + signal, "the signal ends the process, after the crash report")
        #expect(shell.localModes & tcflag_t(ECHO | ISIG) == tcflag_t(ECHO | ISIG), "echo and the signal keys are back on")
    }

    /// At a 40-column terminal, every line of the startup progress and report fits.
    @Test func everyStartupLineFitsA40ColumnTerminal() async throws {
        let workspace = try Workspace()
        let shell = try TerminalSession([], in: workspace.url, columns: 40)
        try await shell.expect("app-shell> ")
        shell.send("quit\r")
        #expect(try await shell.exitStatus() == 0)
        let plain = shell.transcript.replacing(/\u{1B}\[[0-9;]*[A-Za-z]/, with: "")
        let lines = plain.split(separator: "\r\n").flatMap { $0.split(separator: "\n") }
        #expect(lines.contains { $0.contains("auth.restore-session") }, "\(lines)")
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(lines.filter { $0.count > 40 })")
    }
}
