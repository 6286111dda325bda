import AuthInterface
import Foundation
import Testing

@testable import AuthModule

@Suite struct SecretTests {
    @Test func noSecretAppearsInDescriptionsErrorsOrJSON() async throws {
        try await withTemporaryDirectory { directory in
            let auth = try makeAuthenticator(in: directory)
            let user = try await auth.logIn(username: "alice", password: Fixtures.alicePassword)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: directory.sessionFile)) as? [String: Any]
            )
            let token = try #require(object["token"] as? String)

            let wrong = await #expect(throws: AuthError.self) {
                try await auth.logIn(username: "bob", password: "hunter2-secret")
            }
            let stored: StoredSession
            switch SessionStore(directory: directory.stateDirectory).load() {
            case .loaded(let session): stored = session
            default: Issue.record("session file not loadable"); return
            }
            #expect(stored.token.encoded == token)

            let secrets = [token, Fixtures.alicePassword, Fixtures.aliceHash, "hunter2-secret"]
            let userJSON = String(decoding: try JSONEncoder().encode(user), as: UTF8.self)
            let renderings: [String] = [
                allRenderings(of: auth),
                allRenderings(of: auth.state),
                allRenderings(of: user),
                allRenderings(of: stored),
                allRenderings(of: stored.token),
                allRenderings(of: wrong as Any),
                allRenderings(of: SessionChange.authenticated(user)),
                userJSON,
            ]
            for rendering in renderings {
                for secret in secrets {
                    #expect(!rendering.contains(secret), "secret leaked in: \(rendering.prefix(80))")
                }
            }
            let keys = try #require(try JSONSerialization.jsonObject(with: Data(userJSON.utf8)) as? [String: Any]).keys
            #expect(Set(keys) == ["username", "displayName", "authenticatedAt", "expiresAt"])
        }
    }

    @Test func authenticatedUserRoundTripsThroughJSON() throws {
        let user = AuthenticatedUser(
            username: "alice",
            displayName: "Alice",
            authenticatedAt: Date(timeIntervalSince1970: 1_700_000_000),
            expiresAt: Date(timeIntervalSince1970: 1_700_028_800)
        )
        let decoded = try JSONDecoder().decode(AuthenticatedUser.self, from: JSONEncoder().encode(user))
        #expect(decoded == user)
        #expect(!user.isExpired(at: Date(timeIntervalSince1970: 1_700_028_799)))
        #expect(user.isExpired(at: Date(timeIntervalSince1970: 1_700_028_800)))
    }
}
