import Foundation
import TestSupport
import Testing

/// The listings the README names beside `modules` run one-shot, and `validate` counts every
/// module of the manifest.
@Suite("One-shot listings")
struct OneShotListingTests {
    /// `app-shell services` lists who provides what from the modules' declarations, loading none of them.
    @Test func servicesRunsOneShotAndLoadsNothing() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["services", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(JSONLines.data(result.stdout, type: "services") as? [[String: Any]])
        let auth = try #require(rows.first { $0["service"] as? String == "AuthInterface.AuthService" })
        #expect(auth["provider"] as? String == "com.modulehost.auth")
        #expect(rows.allSatisfy { $0["status"] as? String == "registered" }, "listing loaded a module: \(rows)")
        let text = try await workspace.run(["services"])
        #expect(text.stdout.contains("SERVICE"), "\(text.stdout)")
        #expect(text.stdout.contains("AuthInterface.AuthService"))
    }

    /// `app-shell startup` starts, lets the later phases run (nothing waits at a prompt), prints the whole
    /// report and shuts down: every operation of the demo ran, none was cancelled.
    @Test func startupRunsOneShotAndReportsEveryPhase() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["startup", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(JSONLines.data(result.stdout, type: "startupReport") as? [String: Any])
        #expect(report["isComplete"] as? Bool == true, "\(result.stdout)")
        let operations = try #require(report["operations"] as? [[String: Any]])
        #expect(!operations.isEmpty)
        #expect(operations.allSatisfy { $0["state"] as? String == "succeeded" }, "\(operations)")
        let text = try await workspace.run(["startup"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("critical path:"), "\(text.stdout)")
        let extra = try await workspace.run(["startup", "now"])
        #expect(extra.status == 64, "\(extra.stderr)")
    }

    /// A required operation of a later phase that times out fails `startup` with 70, as a blocking one fails a
    /// run: the report says so, and so does the status (an outsider found it exited 0).
    @Test func startupFailsWhenARequiredLaterOperationFails() async throws {
        let workspace = try Workspace(manifest: """
            {"modules": [{"type": "NumbersModule.NumbersModule", "config": {"primeTableBound": 268435456},
                          "operations": {"numbers.warm-primes": {"priority": "low", "timeout": 0.05, "failurePolicy": "required"}}}]}
            """)
        let result = try await workspace.run(["startup", "--json"])
        #expect(result.status == 70, "\(result.all)")
        let report = try #require(JSONLines.data(result.stdout, type: "startupReport") as? [String: Any])
        #expect(report["isSuccessful"] as? Bool == false)
        #expect(result.stdout.contains(#""state":"timedOut""#))
    }
}
