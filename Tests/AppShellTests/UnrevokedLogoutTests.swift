import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A logout that cannot revoke the saved session does not claim it did: it fails, and says the user is still signed
/// in for the next run. Root ignores file permissions, so the user runs as `nobody` (through setpriv).
@Suite("A logout that cannot revoke")
struct UnrevokedLogoutTests {
    // Switching users needs root; CI runs as root, and a run without it reports the test skipped.
    @Test(.enabled(if: geteuid() == 0, "switching to an unprivileged user needs root"))
    func aLogoutThatCannotRevokeTheSavedSessionFailsAndSaysSo() async throws {
        let nobody: (uid_t, gid_t) = (65534, 65534)
        let workspace = try Workspace()
        #expect(chmod(workspace.url.path, 0o1777) == 0, "a folder the user may write in")
        #expect(chmod(workspace.url.appendingPathComponent("modules.json").path, 0o644) == 0)
        let login = try await ShellProcess.run(["login", "alice"], input: "wonderland\n", in: workspace.url, as: nobody)
        #expect(login.status == 0, "\(login.stderr)")

        // The module's folder becomes read-only: the session file can be read, not deleted.
        let folder = workspace.url.appendingPathComponent(".app-shell/com.modulehost.auth")
        #expect(chmod(folder.path, 0o500) == 0)
        let logout = try await ShellProcess.run(["logout"], in: workspace.url, as: nobody)
        #expect(logout.status == 1, "\(logout.stdout)\(logout.stderr)")
        #expect(!logout.stdout.contains("Logged out"), "it claimed success: \(logout.stdout)")
        #expect(logout.stderr.contains("alice is logged out of this run, but the saved session could not be revoked"),
                "\(logout.stderr)")
        #expect(logout.stderr.contains("alice is still signed in for the next run"), "\(logout.stderr)")
        #expect(!logout.stderr.contains("warning:"), "said once, as the command's failure: \(logout.stderr)")
        #expect(logout.stderr.components(separatedBy: "could not be revoked").count == 2, "the message repeats itself: \(logout.stderr)")

        // What it said holds: the next run has alice signed in.
        let whoami = try await ShellProcess.run(["whoami"], in: workspace.url, as: nobody)
        #expect(whoami.stdout.contains("Alice (alice)"), "\(whoami.stdout)\(whoami.stderr)")

        // Writable again, the logout revokes and says so.
        #expect(chmod(folder.path, 0o700) == 0)
        let again = try await ShellProcess.run(["logout"], in: workspace.url, as: nobody)
        #expect(again.status == 0 && again.stdout.contains("Logged out alice."), "\(again.stdout)\(again.stderr)")
    }
}
