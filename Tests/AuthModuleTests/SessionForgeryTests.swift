import AuthInterface
import Foundation
import ModuleHost
import ModuleHostState
import Testing

@testable import AuthModule
import ModuleHostSystemLibraries

/// A session is accepted only if signed with the state directory's key, which only its owner
/// can read. The credential fingerprint derives from the password hash, which is public in modules.json, so anyone
/// could compute it; these files are what such a person can write.
@Suite("Forged sessions")
struct SessionForgeryTests {
    enum Forgery: String, CaseIterable, Sendable {
        /// The format before signatures (version 1), which the old code accepted.
        case unsignedOldFormat
        /// The current format, signed with a key of the forger's own.
        case signedWithAnotherKey
        /// The current format with a made-up MAC, and no key in the directory at all.
        case madeUpMACWithoutKey
    }

    /// What someone who knows only the public hash can write: a session for alice with a correct fingerprint.
    private func forge(_ forgery: Forgery, in directory: TemporaryDirectory, now: Date) throws -> Data {
        let token = SessionToken.generate()
        let fingerprint = try #require(StoredSession.fingerprint(passwordHash: Fixtures.aliceHash, token: token))
        let session = StoredSession(username: "alice", token: token, createdAt: now, expiresAt: now.addingTimeInterval(600),
                                    credentialFingerprint: fingerprint)
        switch forgery {
        case .unsignedOldFormat:
            let object: [String: Any] = [
                "format": StoredSession.format, "version": 1, "username": "alice", "token": token.encoded,
                "createdAt": now.timeIntervalSince1970, "expiresAt": now.timeIntervalSince1970 + 600,
                "credentialFingerprint": fingerprint,
            ]
            return try JSONSerialization.data(withJSONObject: object)
        case .signedWithAnotherKey:
            let elsewhere = try TemporaryDirectory()
            defer { elsewhere.remove() }
            let keyFile = StateFile(url: elsewhere.url.appendingPathComponent("k/session.key"), maximumSize: StateKey.byteCount,
                                    isSecret: true, replace: StateFile.linkOnce)
            let key = try StateKey.loadOrCreate(from: keyFile)
            return try #require(session.signed(with: key)).encoded()
        case .madeUpMACWithoutKey:
            return try StoredSession(username: "alice", token: token, createdAt: now, expiresAt: now.addingTimeInterval(600),
                                     credentialFingerprint: fingerprint, mac: String(repeating: "ab", count: 32)).encoded()
        }
    }

    @Test(arguments: Forgery.allCases)
    func aSessionWrittenWithoutTheKeyIsRejected(_ forgery: Forgery) async throws {
        try await withTemporaryDirectory { directory in
            let clock = FakeClock()
            if forgery == .signedWithAnotherKey {
                // The owner has logged in before, so the directory has a key (not the forger's).
                let auth = try makeAuthenticator(in: directory, clock: clock)
                _ = try await auth.logIn(username: "bob", password: Fixtures.bobPassword)
                try await auth.logOut()
            } else {
                try directory.createStateDirectory()
            }
            try forge(forgery, in: directory, now: clock.now).write(to: directory.sessionFile)
            let victim = try makeAuthenticator(in: directory, clock: clock)
            let diagnostics = victim.restoreSession()
            #expect(victim.state.user == nil, "\(forgery): \(diagnostics)")
            #expect(!diagnostics.map(\.code).contains(.sessionRestored))
            #expect(!FileManager.default.fileExists(atPath: directory.sessionFile.path), "the forged file is removed")
        }
    }

    /// A copy of `session.json` taken before `logout` (a backup, a sync) signed the user in
    /// again after it, until it expired. Logging out now deletes the key that signed it.
    @Test func aSessionFileSavedBeforeLogoutIsRejectedAfterIt() async throws {
        try await withTemporaryDirectory { directory in
            let clock = FakeClock()
            let auth = try makeAuthenticator(in: directory, clock: clock)
            _ = try await auth.logIn(username: "alice", password: Fixtures.alicePassword)
            let saved = try Data(contentsOf: directory.sessionFile)
            let restoredBefore = try makeAuthenticator(in: directory, clock: clock)
            _ = restoredBefore.restoreSession()
            #expect(restoredBefore.state.user?.username == "alice", "the saved copy is a genuine session before logout")
            try await auth.logOut()
            try saved.write(to: directory.sessionFile)
            let replay = try makeAuthenticator(in: directory, clock: clock)
            let diagnostics = replay.restoreSession()
            #expect(replay.state.user == nil, "a session saved before logout signed alice in again: \(diagnostics)")
            #expect(!diagnostics.map(\.code).contains(.sessionRestored))
            // A new log-in works, with a new key.
            _ = try await replay.logIn(username: "alice", password: Fixtures.alicePassword)
            let later = try makeAuthenticator(in: directory, clock: clock)
            _ = later.restoreSession()
            #expect(later.state.user?.username == "alice")
        }
    }

    @Test func editingTheTimesOfAnExpiredSessionDoesNotReviveIt() async throws {
        try await withTemporaryDirectory { directory in
            let clock = FakeClock()
            _ = try await makeAuthenticator(in: directory, lifetime: 60, clock: clock)
                .logIn(username: "alice", password: Fixtures.alicePassword)
            clock.advance(by: 3600)
            // Move both times to now, keeping the lifetime the configuration allows.
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.sessionFile)) as? [String: Any])
            object["createdAt"] = clock.now.timeIntervalSince1970
            object["expiresAt"] = clock.now.timeIntervalSince1970 + 60
            try JSONSerialization.data(withJSONObject: object).write(to: directory.sessionFile)

            let next = try makeAuthenticator(in: directory, lifetime: 60, clock: clock)
            let diagnostics = next.restoreSession()
            #expect(next.state.user == nil)
            #expect(diagnostics.map(\.code) == [.sessionFileForged])
            #expect(diagnostics.first?.message.contains("is not signed with this state directory's key") == true)
        }
    }

    @Test func aGenuineSessionIsRestoredAndTheKeyIsNeverPrinted() async throws {
        try await withTemporaryDirectory { directory in
            let clock = FakeClock()
            let user = try await makeAuthenticator(in: directory, clock: clock).logIn(username: "alice", password: Fixtures.alicePassword)
            let next = try makeAuthenticator(in: directory, clock: clock)
            let diagnostics = next.restoreSession()
            #expect(diagnostics.map(\.code) == [.sessionRestored])
            #expect(next.state == .authenticated(user))
            let key = try Data(contentsOf: directory.stateDirectory.appendingPathComponent("session.key"))
            #expect(key.count == 32)
            let printed = diagnostics.map(\.message).joined() + "\(next)" + String(reflecting: next)
            #expect(!printed.contains(Hex.encode(key)))
        }
    }
}
