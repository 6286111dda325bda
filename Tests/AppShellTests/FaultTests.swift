import Foundation
import TestSupport
import Testing

/// Faults end to end through app-shell: each is reported, dependents are skipped, started modules are
/// unloaded in reverse order, the session file stays intact, the exit status is the documented one, no hang.
@Suite("app-shell faults")
struct FaultTests {
    private static let users = """
        "users": [{"username": "alice", "passwordHash": "$y$j9T$zv4vibxmtz7dU93dcmtBb0$dDa.LWc8n.rpvaxSYdg/Bus2kw1DnqtxQ3VvHODvuG0"}]
        """

    /// An eager module that cannot load stops the shell before anything runs, as `ModuleManager.run` stops every
    /// host: status 70, the module named, what loaded unloaded in reverse order, no command run.
    @Test func anEagerModuleThatCannotLoadStopsStartupWith70() async throws {
        let workspace = try Workspace(manifest: """
            {"modules": [{"type": "ClockModule.ClockModule", "eager": true},
                         {"type": "AuthModule.AuthModule", "eager": true, "config": {"usersFile": "nowhere.json"}}]}
            """)
        let result = try await workspace.run(["--verbose"], input: "uptime\n")
        #expect(result.status == 70, "\(result.stderr)")
        #expect(result.stderr.contains("eager module failed to load"), "\(result.stderr)")
        #expect(result.stderr.contains("com.modulehost.auth") && result.stderr.contains("nowhere.json"), "\(result.stderr)")
        #expect(result.stderr.contains("unloaded com.modulehost.clock"), "what loaded is unloaded: \(result.stderr)")
        #expect(!result.stdout.contains("up "), "no command ran: \(result.stdout)")
        let oneShot = try await workspace.run(["uptime"])
        #expect(oneShot.status == 70, "\(oneShot.stderr)")
    }

    @Test func operationThatThrowsStopsStartupAndUnloadsWhatStarted() async throws {
        // ClockModule loads first (eager); AuthModule's moduleDidLoad fails on the missing users file, so
        // auth.restore-session throws; numbers.load-history depends on it and is skipped.
        let workspace = try Workspace(manifest: """
            {"modules": [{"type": "ClockModule.ClockModule", "eager": true},
                         {"type": "AuthModule.AuthModule", "config": {"usersFile": "nowhere.json"}},
                         "NumbersModule.NumbersModule"]}
            """)
        let result = try await workspace.run(["--verbose", "--json"])
        #expect(result.status == 70)
        let report = try #require(JSONLines.data(result.stdout, type: "startupReport") as? [String: Any])
        let operations = try #require(report["operations"] as? [[String: Any]])
        let states = Dictionary(uniqueKeysWithValues: operations.compactMap { op in
            (op["identifier"] as? String).map { ($0, op["state"] as? String ?? "") }
        })
        #expect(states["auth.restore-session"] == "failed")
        #expect(states["numbers.load-history"] == "skipped")
        #expect(result.stderr.contains("nowhere.json"))
        #expect(result.stderr.contains("unloaded com.modulehost.clock"))
    }

    @Test func operationThatHangsPastItsTimeoutDoesNotHoldStartupHostage() async throws {
        // The prime sieve ignores cancellation; with a 50 ms timeout it is marked timed out and left behind.
        let workspace = try Workspace(manifest: """
            {"modules": [{"type": "NumbersModule.NumbersModule", "config": {"primeTableBound": 268435456},
                          "operations": {"numbers.warm-primes": {"timeout": 0.05, "failurePolicy": "required"}}}]}
            """)
        let result = try await workspace.run(["--json"], input: "quit\n")
        #expect(result.status == 70)
        #expect(result.stdout.contains(#""state":"timedOut""#))
        #expect(result.stderr.contains("numbers.warm-primes"))
    }

    @Test func optionalTimeoutIsReportedAndStartupGoesOn() async throws {
        let workspace = try Workspace(manifest: """
            {"modules": [{"type": "NumbersModule.NumbersModule", "config": {"primeTableBound": 268435456},
                          "operations": {"numbers.warm-primes": {"timeout": 0.05}}}]}
            """)
        // A command that does not need the sieve: the timed-out operation goes on building it (it ignores
        // cancellation), and `fact` would wait for all of it (seconds, more under Thread Sanitizer).
        let result = try await workspace.run([], input: "history\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("timedOut"))
        #expect(result.stdout.contains("No facts looked up yet"), "the module's command ran after startup: \(result.stdout)")
    }

    @Test func moduleWhoseConfigDoesNotDecodeIsABadManifest() async throws {
        let workspace = try Workspace(manifest: #"{"modules": [{"type": "AuthModule.AuthModule", "config": {"users": "alice"}}]}"#)
        let result = try await workspace.run([], input: "whoami\n")
        #expect(result.status == 65)
        #expect(result.stderr.contains("modules[0].config.users: expected an array, found a string"))
        #expect(result.stdout.isEmpty, "nothing starts")
    }

    @Test func stateDirectoryThatCannotBeWrittenKeepsTheSessionIntact() async throws {
        let workspace = try Workspace(manifest: "{\"modules\": [{\"type\": \"AuthModule.AuthModule\", \"config\": {\(Self.users)}}]}")
        // A file where the state directory should be: nothing can be written there, whoever runs the test.
        try workspace.write("not a directory", to: "blocked")
        let result = try await workspace.run(["-q", "--state-dir", "blocked"], input: "login alice\nwonderland\nwhoami\n")
        #expect(result.status == 1, "a session that cannot be saved is a failure, not wrong credentials")
        #expect(result.stderr.contains("is not a directory"))
        #expect(result.stdout.contains("Not logged in"))
        #expect(try String(contentsOf: workspace.url.appendingPathComponent("blocked"), encoding: .utf8) == "not a directory")
    }

    @Test(.enabled(if: getuid() != 0, "root ignores directory permissions"))
    func readOnlyStateDirectoryKeepsTheSessionIntact() async throws {
        let workspace = try Workspace(manifest: "{\"modules\": [{\"type\": \"AuthModule.AuthModule\", \"config\": {\(Self.users)}}]}")
        _ = try await workspace.run(["-q"], input: "login alice\nwonderland\n")
        // The auth module's folder in the state folder: the one that holds the session.
        let state = workspace.url.appendingPathComponent(".app-shell/com.modulehost.auth")
        let before = try Data(contentsOf: state.appendingPathComponent("session.json"))
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: state.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: state.path) }
        let result = try await workspace.run(["-q"], input: "logout\nwhoami\n")
        #expect(result.status == 0)
        #expect(try Data(contentsOf: state.appendingPathComponent("session.json")) == before)
    }

    @Test func noPasswordOrTokenInAnyOutputReportOrTrace() async throws {
        let workspace = try Workspace()
        let first = try await workspace.run(["--json", "--trace", "first.json"], input: "login alice\nwonderland\nwhoami\nstartup\n")
        let sessionData = try Data(contentsOf: workspace.url.appendingPathComponent(".app-shell/com.modulehost.auth/session.json"))
        let session = try #require(try JSONSerialization.jsonObject(with: sessionData) as? [String: Any])
        let token = try #require(session["token"] as? String)
        let fingerprint = try #require(session["credentialFingerprint"] as? String)
        let second = try await workspace.run(["--verbose", "--trace", "second.json"], input: "whoami\nmodules\nservices\nstartup\nlogout\n")
        let traces = try ["first.json", "second.json"].map {
            try String(contentsOf: workspace.url.appendingPathComponent($0), encoding: .utf8)
        }
        let everything = ([first.all, second.all] + traces).joined(separator: "\n")
        #expect(first.stdout.contains(#""displayName":"Alice""#), "login's structured output under --json")
        #expect(second.stdout.contains("Logged out alice."))
        #expect(token.count >= 32)
        #expect(!everything.contains("wonderland"))
        #expect(!everything.contains(token))
        #expect(!everything.contains(String(token.prefix(16))))
        #expect(!everything.contains(fingerprint))
        #expect(!everything.contains("$y$"), "no password hash either")
    }
}
