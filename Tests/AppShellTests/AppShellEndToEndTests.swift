import Foundation
import TestSupport
import Testing

/// Runs the built `app-shell` with scripted input, temporary manifests and state directories.
@Suite("app-shell end to end")
struct AppShellEndToEndTests {
    @Test func scriptedSessionLogsInLooksUpFactsAndKeepsHistory() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["-q"], input: "whoami\nfact 28\nlogin alice\nwonderland\nwhoami\nfact 2305843009213693951\nhistory\nquit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Not logged in."))
        #expect(result.stdout.contains("28 is a perfect number"))
        #expect(result.stdout.contains("Logged in as Alice (alice)."))
        #expect(result.stdout.contains("Alice (alice), session until"))
        #expect(result.stdout.contains("History (alice):\n  1. 2305843009213693951 is prime"))
        #expect(!result.all.contains("wonderland"), "the password must never be printed")
        // The session and history are persisted, owner-only, each module's in its own folder of the state folder.
        let state = workspace.url.appendingPathComponent(".app-shell")
        for path in ["com.modulehost.auth/session.json", "com.modulehost.auth/session.key", "com.modulehost.numbers/numbers-history.json"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: state.appendingPathComponent(path).path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(path)")
        }
        for folder in [".", "com.modulehost.auth", "com.modulehost.numbers"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: state.appendingPathComponent(folder).path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700, "\(folder)")
        }
    }

    /// State files of the layout before each module had a folder (`.app-shell/session.json`, `session.key`,
    /// `numbers-history.json`) are honoured after the upgrade: the session is restored and the history shown, and
    /// the files are moved into the modules' folders.
    @Test func stateFilesOfTheOldLayoutAreStillHonoured() async throws {
        let workspace = try Workspace()
        _ = try await workspace.run(["-q"], input: "login alice\nwonderland\nfact 28\n")
        let state = workspace.url.appendingPathComponent(".app-shell")
        let manager = FileManager.default
        let moved = ["com.modulehost.auth/session.json", "com.modulehost.auth/session.key", "com.modulehost.numbers/numbers-history.json"]
        for path in moved {
            try manager.moveItem(at: state.appendingPathComponent(path), to: state.appendingPathComponent((path as NSString).lastPathComponent))
        }
        try manager.removeItem(at: state.appendingPathComponent("com.modulehost.auth"))
        try manager.removeItem(at: state.appendingPathComponent("com.modulehost.numbers"))

        let result = try await workspace.run(["-q"], input: "whoami\nhistory\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Alice (alice), session until"), "\(result.stdout)")
        #expect(result.stdout.contains("History (alice):\n  1. 28 is a perfect number"), "\(result.stdout)")
        for path in moved {
            #expect(manager.fileExists(atPath: state.appendingPathComponent(path).path), "\(path) not moved into its module's folder")
            #expect(!manager.fileExists(atPath: state.appendingPathComponent((path as NSString).lastPathComponent).path))
        }
    }

    @Test func sessionPersistsAcrossRunsUntilLogout() async throws {
        let workspace = try Workspace()
        _ = try await workspace.run(["-q"], input: "login bob\nbuilder\nfact 12\n")
        let second = try await workspace.run(["-q"], input: "whoami\nhistory\nlogout\n")
        #expect(second.status == 0)
        #expect(second.stdout.contains("Bob the Builder (bob), session until"))
        #expect(second.stdout.contains("History (bob):\n  1. 12 is"))
        #expect(second.stdout.contains("Logged out bob."))
        let third = try await workspace.run(["-q"], input: "whoami\n")
        #expect(third.stdout.contains("Not logged in"))
    }

    @Test func wrongPasswordExits77WithoutEchoingIt() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["-q"], input: "login alice\nnot-the-password\nwhoami\n")
        #expect(result.status == 77)
        #expect(result.stderr.contains("error: invalid username or password"))
        #expect(result.stdout.contains("Not logged in."))
        #expect(!result.all.contains("not-the-password"))
    }

    @Test func loginUsageErrorsAreUsageErrorsNotAuthenticationFailures() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["-q"], input: "login\nlogin a b\n")
        #expect(result.status == 64, "a script's status is that of its first failed command")
        #expect(result.stderr.contains("usage: login <user>"))
    }

    @Test func unknownCommandGetsHelpNotACrash() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["-q"], input: "factt 3\nfact abc\nfact\n")
        #expect(result.status == 64, "a script's status is that of its first failed command")
        #expect(result.stderr.contains("line 1: unknown command; did you mean 'fact'?"), "a script's line is named, not repeated")
        #expect(result.stdout.contains("Commands:"))
        #expect(result.stderr.contains("'abc' is not an integer"))
        #expect(result.stderr.contains("usage: fact <n>"))
    }

    @Test func startupReportIsPrintedWithEveryOperation() async throws {
        let workspace = try Workspace()
        // At full width, the table has a row per operation whatever the modules' names (at a narrower width
        // than the table needs, each operation is a block of lines: ReportWidthTests).
        let result = try await workspace.run(["--full"], input: "startup\n")
        #expect(result.status == 0)
        for operation in ["auth.restore-session", "numbers.warm-primes", "numbers.load-history"] {
            let rows = result.stdout.split(separator: "\n").filter { $0.hasPrefix(operation + " ") }
            #expect(rows.count == 2, "\(operation) has a row in both reports")
            #expect(rows.allSatisfy { $0.contains("succeeded") })
        }
        #expect(!result.all.contains("\u{1B}["), "no colours when not on a terminal")
    }

    @Test func moduleTheShellNeverImportsIsFoundAndItsServiceResolves() async throws {
        // ClockModule is linked into app-shell but imported by none of its sources; only the manifest names it.
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/AppShell")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 30, "the shell's sources were not found: \(files.count) files")
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("import ClockModule"), "\(file) imports ClockModule")
        }
        let workspace = try Workspace(manifest: #"{"modules": ["ClockModule.ClockModule"]}"#)
        // Listing reads declarations and loads nothing; `uptime` resolves ClockService through the bridge.
        let result = try await workspace.run(["-q", "--json"], input: "services\nuptime\nservices\nmodules\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""service":"ClockInterface.ClockService""#))
        #expect(result.stdout.contains(#""status":"registered""#))
        #expect(result.stdout.contains(#""command":"uptime""#))
        #expect(result.stdout.contains(#""status":"loaded""#))
        #expect(result.stdout.contains(#""state":"loaded""#))
    }

    @Test func numbersWorkAnonymouslyWithoutAuthModule() async throws {
        let workspace = try Workspace(manifest: #"{"modules": ["NumbersModule.NumbersModule"]}"#)
        let result = try await workspace.run(["-q"], input: "fact 8128\nhistory\nlogin alice\n")
        #expect(result.stdout.contains("8128 is a perfect number"))
        #expect(result.stdout.contains("History (anonymous):"))
        #expect(result.stderr.contains("line 3: unknown command"), "login comes from AuthModule, which is not in the manifest")
    }

    @Test func requiredStartupFailureExits70AndSkipsDependents() async throws {
        // The users file does not exist, so AuthModule fails to load and its restore operation fails.
        let workspace = try Workspace(manifest: """
            {"modules": [{"type": "AuthModule.AuthModule", "config": {"usersFile": "missing-users.json"}},
                         "NumbersModule.NumbersModule"]}
            """)
        let result = try await workspace.run([], input: "whoami\n")
        #expect(result.status == 70)
        #expect(result.stdout.contains("auth.restore-session"))
        #expect(result.stdout.contains("failed"))
        #expect(result.stdout.contains("skipped"))
        #expect(result.stderr.contains("missing-users.json"))
    }

    @Test func corruptedSessionFileIsReportedAndIgnored() async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(at: workspace.url.appendingPathComponent(".app-shell/com.modulehost.auth"),
                                                withIntermediateDirectories: true)
        try workspace.write("{ not json", to: ".app-shell/com.modulehost.auth/session.json")
        let result = try await workspace.run(["-q"], input: "whoami\n")
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: [com.modulehost.auth]"))
        #expect(result.stdout.contains("Not logged in"))
    }

    @Test func stateDirectoryOption() async throws {
        let workspace = try Workspace()
        _ = try await workspace.run(["-q", "--state-dir", "custom-state"], input: "login alice\nwonderland\n")
        #expect(FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("custom-state/com.modulehost.auth/session.json").path))
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent(".app-shell/com.modulehost.auth").path))
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent(".app-shell/session.json").path))
    }
}
