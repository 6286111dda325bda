import Foundation
import TestSupport
import Testing

/// `login bob` while alice is logged in says so, with the usage exit code (64), not 77.
@Suite("Log-in while logged in")
struct LogInWhileLoggedInTests {
    @Test func loggingInWhileSomeoneIsLoggedInIsAUsageError() async throws {
        let workspace = try Workspace()
        let first = try await workspace.run(["login", "alice"], input: "wonderland\n")
        #expect(first.status == 0, "\(first.stderr)")
        let second = try await workspace.run(["login", "bob"], input: "builder\n")
        #expect(second.status == 64, "usage, not 77 (authentication failed): \(second.stderr)")
        #expect(second.stderr.contains("Alice (alice) is logged in; log out first"), "\(second.stderr)")
        #expect(!second.stderr.contains("builder"), "the password is never echoed")
    }
}
