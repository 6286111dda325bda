import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Forged sessions, end to end with the built `app-shell`.
///
/// Root ignores file permissions, so the forgery runs as real unprivileged users: the forger is `nobody`, and the
/// victim is a system user the test creates once (`modulehost-victim`, reused if present), both through
/// `setpriv --reuid --regid --clear-groups`.
@Suite("Sessions in shared folders")
struct SessionOwnershipEndToEndTests {
    /// The victim's uid and gid: a system user created on first use (idempotent; a concurrent creation is fine).
    private static func victim() throws -> (uid_t, gid_t)? {
        let name = "modulehost-victim"
        for _ in 0..<5 {
            if let entry = getpwnam(name) { return (entry.pointee.pw_uid, entry.pointee.pw_gid) }
            let useradd = Process()
            useradd.executableURL = URL(fileURLWithPath: "/usr/sbin/useradd")
            useradd.arguments = ["--system", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", name]
            useradd.standardError = FileHandle.nullDevice
            try useradd.run()
            useradd.waitUntilExit()
        }
        return nil
    }

    // Switching users needs root; CI runs as root, and a run without it reports the test skipped.
    @Test(.enabled(if: geteuid() == 0, "switching to unprivileged users needs root"))
    func aSessionForgedByAnotherLocalUserInASharedFolderIsRefused() async throws {
        let nobody: (uid_t, gid_t) = (65534, 65534)
        let victim = try #require(try Self.victim(), "cannot create the user modulehost-victim with useradd")
        let workspace = try Workspace()
        let shared = workspace.url
        #expect(chmod(shared.path, 0o1777) == 0, "a shared folder, like /tmp")
        #expect(chmod(shared.appendingPathComponent("modules.json").path, 0o644) == 0)

        // The forger makes a session for alice as the program would (here by logging in, which stands for writing
        // the same bytes from public data: the fingerprint derives from the public hash), then opens it up as in
        // the report: .app-shell and the module's folder in it 0755, session.json 0644.
        let forged = try await ShellProcess.run(["login", "alice"], input: "wonderland\n", in: shared, as: nobody)
        #expect(forged.status == 0, "\(forged.stderr)")
        let state = shared.appendingPathComponent(".app-shell")
        #expect(chmod(state.path, 0o755) == 0)
        #expect(chmod(state.appendingPathComponent("com.modulehost.auth").path, 0o755) == 0)
        #expect(chmod(state.appendingPathComponent("com.modulehost.auth/session.json").path, 0o644) == 0)

        // The victim, who never logged in here, asks who is logged in.
        let result = try await ShellProcess.run(["whoami"], in: shared, as: victim)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("Alice"), "a forged session was accepted: \(result.stdout)")
        #expect(result.stdout.contains("Not logged in"), "\(result.stdout)")
        #expect(result.stderr.contains("is owned by another user (uid 65534)"), "\(result.stderr)")

        // And as root, who can read everything: still refused.
        let asRoot = try await ShellProcess.run(["whoami"], in: shared)
        #expect(asRoot.stdout.contains("Not logged in"), "\(asRoot.stdout)")
    }
}
