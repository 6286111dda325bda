import Foundation
import TestSupport
import ModuleHost
import Testing

@testable import AppShell

#if canImport(Glibc)
import Glibc
#endif

/// Line editing, history, completion and Ctrl-C at the prompt, shown on a pseudo-terminal
/// with the built `app-shell`. They need libedit (`libedit2`, installed by `.ci/run`); without it they fail,
/// starting with ``libeditIsLoaded()``.
@Suite("app-shell prompt on a terminal")
struct PromptEditingTests {
    private static let up = "\u{1B}[A", left = "\u{1B}[D", ctrlC = "\u{3}", ctrlD = "\u{4}", tab = "\t"

    @Test func libeditIsLoaded() {
        #expect(LibEdit.shared != nil, "libedit could not be loaded (install libedit2): the prompt has no line editing")
    }

    @Test func upRecallsThePreviousCommand() async throws {
        let workspace = try Workspace()
        let shell = try TerminalSession(in: workspace.url)
        try await shell.expect("app-shell> ")
        shell.send("fact 6\r")
        try await shell.expect("6 is a perfect number")
        try await shell.expect("app-shell> ")
        try await Self.untilTheLineIsEdited(shell)
        shell.send(Self.up + "\r")
        try await shell.expect("6 is a perfect number")
        try await shell.expect("app-shell> ")
        shell.send("quit\r")
        #expect(try await shell.exitStatus() == 0)
    }

    @Test func leftArrowMovesTheCursorToEditTheLine() async throws {
        let workspace = try Workspace()
        let shell = try TerminalSession(in: workspace.url)
        try await shell.expect("app-shell> ")
        // Sent before the terminal is raw, the arrow would be echoed as typed (`^[[D`) by the terminal itself.
        try await Self.untilTheLineIsEdited(shell)
        // `fact 2`, Left, `8`: the line is `fact 82`.
        shell.send("fact 2" + Self.left + "8\r")
        try await shell.expect("\n82 ")
        let rest = try await shell.expect("app-shell> ")
        #expect(!rest.contains("not an integer"))
        shell.send("quit\r")
        #expect(try await shell.exitStatus() == 0)
        #expect(!shell.transcript.contains("^[["), "an arrow key is never shown raw")
    }

    /// Ctrl-Space (a NUL byte) does nothing: on an empty line it does not end the shell, and in mid-line it deletes
    /// nothing. Only a NUL that the terminal kept as the end-of-file mark
    /// of a Ctrl-D typed before the line's read began is read as Ctrl-D (`EditorKeysTests`); every NUL used to be,
    /// so Ctrl-Space quit the shell and `fact 12` edited with it ran as `fact 2`.
    @Test func aNULKeyNeitherEndsTheShellNorDeletes() async throws {
        let workspace = try Workspace()
        let shell = try TerminalSession(in: workspace.url)
        try await shell.expect("app-shell> ")
        try await Self.untilTheLineIsEdited(shell)
        shell.send("\u{0}")
        shell.send("fact 6\r")
        try await shell.expect("6 is a perfect number")
        try await shell.expect("app-shell> ")
        // `fact 128`, Left twice (the cursor on `2`), Ctrl-Space: the line is still `fact 128`.
        shell.send("fact 128" + Self.left + Self.left + "\u{0}\r")
        try await shell.expect("\n128 ")
        try await shell.expect("app-shell> ")
        shell.send("quit\r")
        #expect(try await shell.exitStatus() == 0)
    }

    /// Returns once the terminal is raw: libedit is editing the line, so a key sent now is not typed ahead.
    private static func untilTheLineIsEdited(_ shell: TerminalSession) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while shell.localModes & tcflag_t(ICANON) != 0 {
            try #require(ContinuousClock.now < deadline, "the terminal never went raw at the prompt")
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test func tabCompletesACommandNameAndAFirstArgument() async throws {
        let workspace = try Workspace()
        let shell = try TerminalSession(in: workspace.url)
        try await shell.expect("app-shell> ")
        // A module command's name (ClockModule's `uptime`).
        shell.send("upti" + Self.tab + "\r")
        try await shell.expect("up ")
        try await shell.expect(" s, since ")
        try await shell.expect("app-shell> ")
        // The shell's `reload` completes module identifiers.
        shell.send("reload com.modulehost.cl" + Self.tab + "\r")
        try await shell.expect("Reloaded com.modulehost.clock")
        try await shell.expect("app-shell> ")
        shell.send("quit\r")
        #expect(try await shell.exitStatus() == 0)
    }

    @Test func ctrlCAtThePromptDropsTheLineAndTheShellKeepsRunning() async throws {
        let workspace = try Workspace()
        let shell = try TerminalSession(in: workspace.url)
        try await shell.expect("app-shell> ")
        shell.send("fact 28" + Self.ctrlC)
        try await shell.expect("^C")
        try await shell.expect("app-shell> ")
        shell.send("fact 6\r")
        try await shell.expect("6 is a perfect number")
        try await shell.expect("app-shell> ")
        // Ctrl-D on an empty line ends the shell, in order.
        shell.send(Self.ctrlD)
        #expect(try await shell.exitStatus() == 0)
        #expect(!shell.transcript.contains("28 is a perfect number"), "the line dropped by Ctrl-C never ran")
    }

    @Test func ctrlCAtThePasswordPromptCancelsTheLogInOnly() async throws {
        let workspace = try Workspace()
        let shell = try TerminalSession(in: workspace.url)
        try await shell.expect("app-shell> ")
        shell.send("login alice\r")
        try await shell.expect("Password for alice: ")
        #expect(shell.localModes & tcflag_t(ECHO) == 0, "the password is read without echo")
        shell.send("wonder" + Self.ctrlC)
        // The next output starts on a line of its own.
        let cancelled = try await shell.expect("no password was read")
        #expect(cancelled.hasPrefix("\r\n"), "\(cancelled.debugDescription)")
        try await shell.expect("app-shell> ")
        shell.send("whoami\r")
        try await shell.expect("Not logged in")
        try await shell.expect("app-shell> ")
        shell.send("quit\r")
        #expect(try await shell.exitStatus() == 0)
        #expect(!shell.transcript.contains("wonder"), "the password typed is never shown")
        #expect(shell.localModes & tcflag_t(ECHO | ISIG) == tcflag_t(ECHO | ISIG), "echo and the signal keys are back on")
    }

    @Test func theHistoryFileIsPrivateKeepsCommandsAcrossRunsAndNeverAPassword() async throws {
        let workspace = try Workspace()
        let first = try TerminalSession(in: workspace.url)
        try await first.expect("app-shell> ")
        first.send("login alice\r")
        try await first.expect("Password for alice: ")
        first.send("wonderland\r")
        try await first.expect("Logged in as Alice")
        try await first.expect("app-shell> ")
        first.send("fact 28\r")
        try await first.expect("28 is a perfect number")
        try await first.expect("app-shell> ")
        first.send("logout\r")
        try await first.expect("Logged out alice.")
        try await first.expect("app-shell> ")
        first.send("quit\r")
        #expect(try await first.exitStatus() == 0)

        let file = workspace.url.appendingPathComponent(".app-shell/history")
        let history = try String(contentsOf: file, encoding: .utf8)
        #expect(history == "login alice\nfact 28\nlogout\nquit\n")
        #expect(!history.contains("wonderland"))
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)

        // The next run recalls the last run's commands.
        let second = try TerminalSession(in: workspace.url)
        try await second.expect("app-shell> ")
        second.send(Self.up + Self.up + "\r")
        // Up twice is the last run's `logout` (the latest line, `quit`, is one Up away).
        try await second.expect("Nobody is logged in.")
        try await second.expect("app-shell> ")
        second.send("quit\r")
        #expect(try await second.exitStatus() == 0)
    }
}
