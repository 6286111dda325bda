import AuthInterface
import Foundation
import Testing

@testable import AuthModule

/// A session file that is damaged, foreign or edited is reported and never restored.
@Suite("Damaged session files")
struct SessionFileDamageTests {
    @Test(arguments: [
        ("garbage", Data([0xFF, 0x00, 0x13, 0x37, 0x42]), AuthDiagnostic.Code.sessionFileCorrupted, false),
        ("empty", Data(), .sessionFileCorrupted, false),
        ("array", Data("[1, 2, 3]".utf8), .sessionFileForeign, true),
        ("other object", Data(#"{"name": "something else", "version": 1}"#.utf8), .sessionFileForeign, true),
        ("wrong version", Data(#"{"format": "app-shell.auth-session", "version": 99}"#.utf8), .sessionFileUnsupportedVersion, false),
        (
            "bad token",
            Data(
                #"{"format": "app-shell.auth-session", "version": 2, "username": "alice", "token": "SECRETVALUE", "createdAt": 0, "expiresAt": 9999999999, "credentialFingerprint": "x"}"#
                    .utf8),
            .sessionFileCorrupted, false
        ),
        (
            "missing field",
            Data(#"{"format": "app-shell.auth-session", "version": 2, "username": "alice"}"#.utf8),
            .sessionFileCorrupted, false
        ),
    ])
    func unusableSessionFilesAreReportedAndIgnored(
        _ name: String, _ contents: Data, _ expected: AuthDiagnostic.Code, _ keptAsForeign: Bool
    ) async throws {
        try await withTemporaryDirectory { directory in
            try directory.createStateDirectory()
            try contents.write(to: directory.sessionFile)
            let auth = try makeAuthenticator(in: directory)
            let diagnostics = auth.restoreSession()
            #expect(diagnostics.map(\.code) == [expected], "\(name)")
            #expect(diagnostics.allSatisfy { $0.severity == .warning })
            #expect(!diagnostics.contains { $0.message.contains("SECRETVALUE") })
            #expect(auth.state == .notAuthenticated(nil))
            // Our damaged files are removed; foreign files are left alone.
            #expect(FileManager.default.fileExists(atPath: directory.sessionFile.path) == keptAsForeign)

            // Logging in replaces whatever was there.
            let user = try await auth.logIn(username: "alice", password: Fixtures.alicePassword)
            let next = try makeAuthenticator(in: directory)
            _ = next.restoreSession()
            #expect(next.state == .authenticated(user))
        }
    }

    @Test func forgedSessionsForAnotherUserAreRejected() async throws {
        try await withTemporaryDirectory { directory in
            _ = try await makeAuthenticator(in: directory).logIn(username: "bob", password: Fixtures.bobPassword)
            // Edit the file to claim alice: the MAC was made over bob's session.
            let text = try String(contentsOf: directory.sessionFile, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "\"bob\"", with: "\"alice\"").utf8).write(to: directory.sessionFile)
            let next = try makeAuthenticator(in: directory)
            #expect(next.restoreSession().map(\.code) == [.sessionFileForged])
            #expect(next.state == .notAuthenticated(nil))
        }
    }
}

/// A session file whose dates were edited by hand must neither crash the host nor outlive the configured lifetime.
@Suite("Edited session files")
struct EditedSessionFileTests {
    @Test(arguments: [1e300, 4_102_444_800.0])
    func aSessionClaimingALongerLifetimeIsRejected(expiresAt: Double) async throws {
        try await withTemporaryDirectory { directory in
            let auth = try makeAuthenticator(in: directory, lifetime: 60)
            _ = try await auth.logIn(username: "alice", password: Fixtures.alicePassword)
            let file = directory.stateDirectory.appendingPathComponent("session.json")
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            object["expiresAt"] = expiresAt
            try JSONSerialization.data(withJSONObject: object).write(to: file)

            let restored = try makeAuthenticator(in: directory, lifetime: 60)
            let diagnostics = restored.restoreSession()
            #expect(restored.state.isAuthenticated == false)
            // Edited without the key: the MAC no longer matches.
            #expect(diagnostics.map(\.code) == [.sessionFileForged])
        }
    }
}
