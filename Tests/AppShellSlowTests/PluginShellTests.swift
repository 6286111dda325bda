import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The app-shell behaviours that need a plugin built (the Greeter, or a copy of it): slow-lane tests, since the
/// plugin is a package of its own that `build.sh` builds.
@Suite("app-shell with a plugin", .enabled(if: SlowLane.isRequested, SlowLane.reason), .timeLimit(.minutes(20)))
struct PluginShellTests {
    /// `validate` used to say "1 module" for a manifest with a module and a plugin: plugins are checked, not
    /// loaded, and were left out of the count.
    @Test func validateCountsPluginModules() async throws {
        let library = try await PluginBuild.shared.library()
        let workspace = try Workspace(manifest: nil)
        let plugins = workspace.url.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        let copy = plugins.appendingPathComponent("libGreeterPlugin.so")
        try FileManager.default.copyItem(at: library, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy.path)
        try workspace.write(#"{"modules": ["ClockModule.ClockModule", {"type": "GreeterPlugin.GreeterModule", "library": "plugins/libGreeterPlugin.so"}]}"#,
                            to: "modules.json")
        let result = try await workspace.run(["validate"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("valid (2 modules,"), "\(result.stdout)")
        // The Greeter's startup operation is not counted (validate loads no plugin), and validate says so.
        #expect(result.stdout.contains("besides those of 1 plugin module, counted when loaded"), "\(result.stdout)")
        let json = try await workspace.run(["validate", "--json"])
        let verdict = try #require(JSONLines.data(json.stdout, type: "validation") as? [String: Any])
        #expect(verdict["modules"] as? Int == 2, "\(verdict)")
        #expect(verdict["pluginModulesNotCounted"] as? Int == 1, "\(verdict)")
    }

    @Test func sigintDuringStartupCancelsTheBlockedOperationAndExits130() async throws {
        // A plugin's startup operation (.asyncHigh, a phase that blocks startup) announces itself on standard error
        // and then never ends, ignoring cancellation: the signal lands while it runs, and the shell must give up on
        // it. numbers.warm-primes is moved to the phase after startup, so it must never start. Input is waiting, so
        // a prompt would run it.
        let library = try await PluginBuild.shared.blockingLibrary()
        let workspace = try Workspace(manifest: """
            {"modules": [{"type": "ClockModule.ClockModule", "eager": true},
                         {"type": "AuthModule.AuthModule", "config": {"users": [{"username": "alice", "passwordHash": "$y$j9T$zv4vibxmtz7dU93dcmtBb0$dDa.LWc8n.rpvaxSYdg/Bus2kw1DnqtxQ3VvHODvuG0"}]}},
                         {"type": "NumbersModule.NumbersModule", "config": {"primeTableBound": 1000},
                          "operations": {"numbers.warm-primes": {"priority": "afterFirstFrame"}}},
                         {"type": "GreeterPlugin.GreeterModule", "library": "plugins/libGreeterPlugin.so"}]}
            """)
        let plugins = workspace.url.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: library, to: plugins.appendingPathComponent("libGreeterPlugin.so"))
        let err = PipeBuffer()
        let result = try await ShellProcess.interrupt(["--verbose", "--json"], in: workspace, input: "fact 28\n", errors: err,
                                         when: { err.text.contains("greeter.warm-up: started") }, signal: SIGINT)

        #expect(result.status == 130, "\(result.stderr)")
        let report = try #require(JSONLines.data(result.stdout, type: "startupReport") as? [String: Any],
                                  "the startup report, and nothing else: \(result.stdout)")
        let operations = try #require(report["operations"] as? [[String: Any]])
        let records = Dictionary(uniqueKeysWithValues: operations.compactMap { op in (op["identifier"] as? String).map { ($0, op) } })
        #expect(records["auth.restore-session"]?["state"] as? String == "succeeded")
        #expect(records["greeter.warm-up"]?["state"] as? String == "cancelled")
        #expect(records["greeter.warm-up"]?["startedAtMs"] != nil, "it was running when cancelled")
        #expect(records["numbers.warm-primes"]?["state"] as? String != "succeeded")
        #expect(records["numbers.warm-primes"]?["startedAtMs"] == nil, "the later phase never started")
        #expect(result.stderr.contains("startup interrupted;"))
        #expect(!result.stdout.contains("perfect number"), "no command ran")
        // Unloaded in reverse load order: numbers (.asyncHigh) before auth (.high) before the eager clock.
        // Under --json every line the shell writes is a document: `unloaded …` is a notice's message.
        let notices = result.stderr.split(separator: "\n").compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["data"] as? [String: Any]
        }
        let unloaded = notices.compactMap { $0["message"] as? String }.filter { $0.hasPrefix("unloaded ") }
        let order = ["unloaded com.modulehost.numbers", "unloaded com.modulehost.auth", "unloaded com.modulehost.clock"]
        #expect(order.allSatisfy(unloaded.contains) && order.compactMap(unloaded.firstIndex(of:)) == order.compactMap(unloaded.firstIndex(of:)).sorted(),
                "\(unloaded)")
    }
}
