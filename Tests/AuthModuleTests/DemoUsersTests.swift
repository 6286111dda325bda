import Foundation
import Testing

@testable import AuthModule

/// The demo users shipped in the app's manifest (alice / wonderland, bob / builder).
@Suite struct DemoUsersTests {
    static let manifestSnippet = #"""
        {
          "users": [
            { "username": "alice", "displayName": "Alice", "passwordHash": "$y$j9T$zv4vibxmtz7dU93dcmtBb0$dDa.LWc8n.rpvaxSYdg/Bus2kw1DnqtxQ3VvHODvuG0" },
            { "username": "bob", "displayName": "Bob the Builder", "passwordHash": "$y$j9T$1KY.SpxmEw6jptal3nCUp/$2NL0h2bacw9FUICRPtgMmbTcjHzemvAQToiN1x/CxOB" }
          ],
          "sessionLifetime": 28800
        }
        """#

    @Test func demoUsersCanLogIn() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = try AuthConfiguration.decode(from: Data(Self.manifestSnippet.utf8))
            configuration.stateDirectory = directory.stateDirectory.path
            let auth = Authenticator(configuration: try configuration.resolve(baseDirectory: directory.url))
            let alice = try await auth.logIn(username: "alice", password: "wonderland")
            #expect(alice.displayName == "Alice")
            try await auth.logOut()
            let bob = try await auth.logIn(username: "bob", password: "builder")
            #expect(bob.displayName == "Bob the Builder")
        }
    }
}
