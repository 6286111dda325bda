import AuthInterface
import Foundation
import Testing

@testable import AuthModule

@Suite struct ConfigurationTests {
    private func decode(_ json: String) throws(AuthError) -> AuthConfiguration {
        try AuthConfiguration.decode(from: Data(json.utf8))
    }

    private func resolveError(_ configuration: AuthConfiguration, base: URL) -> AuthError? {
        do {
            _ = try configuration.resolve(baseDirectory: base, workingDirectory: base)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesAndResolvesAFullConfiguration() throws {
        try withTemporaryDirectoryNonAsync { directory in
            let json = """
                {
                  "users": [
                    {"username": "alice", "displayName": "Alice", "passwordHash": "\(Fixtures.aliceHash)"},
                    {"username": "bob", "passwordHash": "\(Fixtures.bobHash)"}
                  ],
                  "stateDirectory": "state",
                  "sessionLifetime": 60
                }
                """
            let configuration = try decode(json)
            #expect(configuration.users.count == 2)
            let resolved = try configuration.resolve(baseDirectory: directory.url)
            #expect(resolved.sessionLifetime == 60)
            #expect(resolved.stateDirectory.path == directory.stateDirectory.standardizedFileURL.path)
            #expect(resolved.users.usernames == ["alice", "bob"])
            #expect(resolved.users.entry(for: "alice")?.displayName == "Alice")
            #expect(resolved.users.entry(for: "bob")?.displayName == "bob")
        }
    }

    @Test func defaultsApply() throws {
        try withTemporaryDirectoryNonAsync { directory in
            let resolved = try AuthConfiguration(users: Fixtures.users)
                .resolve(baseDirectory: directory.url, workingDirectory: directory.url)
            #expect(resolved.sessionLifetime == 8 * 3600)
            let host = directory.url.appendingPathComponent(".app-shell").standardizedFileURL
            #expect(resolved.stateDirectory.path == host.appendingPathComponent("com.modulehost.auth").path)
            #expect(resolved.hostStateDirectory?.path == host.path)
        }
    }

    @Test func plaintextHashIsRejectedWithoutEchoingIt() throws {
        let configuration = AuthConfiguration(users: [
            .init(username: "alice", passwordHash: Fixtures.aliceHash),
            .init(username: "bob", passwordHash: "builder"),
        ])
        let error = try #require(resolveError(configuration, base: URL(fileURLWithPath: "/tmp")))
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.contains("users[1]"))
        #expect(error.message.contains("\"bob\""))
        #expect(error.message.contains("plaintext"))
        #expect(!error.message.contains("builder"))
    }

    @Test func duplicateUsernamesAreRejected() throws {
        let configuration = AuthConfiguration(users: [
            .init(username: "alice", passwordHash: Fixtures.aliceHash),
            .init(username: "bob", passwordHash: Fixtures.bobHash),
            .init(username: "alice", passwordHash: Fixtures.bobHash),
        ])
        let error = try #require(resolveError(configuration, base: URL(fileURLWithPath: "/tmp")))
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.contains("users[2]"))
        #expect(error.message.contains("duplicate username \"alice\""))
        #expect(error.message.contains("users[0]"))
    }

    @Test func emptyUsernamesAndEmptyUserListsAreRejected() throws {
        let base = URL(fileURLWithPath: "/tmp")
        let empty = try #require(resolveError(AuthConfiguration(users: [.init(username: " ", passwordHash: Fixtures.aliceHash)]), base: base))
        #expect(empty.message.contains("users[0]: username must not be empty"))
        let none = try #require(resolveError(AuthConfiguration(), base: base))
        #expect(none.message.contains("no users configured"))
    }

    @Test(arguments: [0.0, -5.0, Double.infinity, 1e300, 31_622_401.0])
    func invalidLifetimesAreRejected(_ lifetime: Double) throws {
        let configuration = AuthConfiguration(users: Fixtures.users, sessionLifetime: lifetime)
        let error = try #require(resolveError(configuration, base: URL(fileURLWithPath: "/tmp")))
        #expect(error.message.contains("sessionLifetime"))
    }

    @Test func decodingErrorsNameTheCodingPath() throws {
        let missing = #expect(throws: AuthError.self) {
            try decode(#"{"users": [{"username": "alice"}]}"#)
        }
        #expect(missing?.code == .invalidConfiguration)
        #expect(missing?.message.contains("users[0].passwordHash") == true)

        let mismatch = #expect(throws: AuthError.self) {
            try decode(#"{"users": [{"username": 5, "passwordHash": "x"}]}"#)
        }
        #expect(mismatch?.message.contains("users[0].username") == true)

        let typo = #expect(throws: AuthError.self) {
            try decode(#"{"users": [], "sesionLifetime": 5}"#)
        }
        #expect(typo?.message.contains("unknown key \"sesionLifetime\"") == true)

        let nestedTypo = #expect(throws: AuthError.self) {
            try decode(#"{"users": [{"username": "a", "password": "plain", "passwordHash": "x"}]}"#)
        }
        #expect(nestedTypo?.message.contains("users[0].password") == true)
    }

    @Test func usersFileIsReadRelativeToTheBaseDirectory() throws {
        try withTemporaryDirectoryNonAsync { directory in
            let arrayFile = #"[{"username": "bob", "passwordHash": "\#(Fixtures.bobHash)"}]"#
            try Data(arrayFile.utf8).write(to: directory.url.appendingPathComponent("users.json"))
            let configuration = AuthConfiguration(
                users: [.init(username: "alice", passwordHash: Fixtures.aliceHash)],
                usersFile: "users.json"
            )
            let resolved = try configuration.resolve(baseDirectory: directory.url, workingDirectory: directory.url)
            #expect(resolved.users.usernames == ["alice", "bob"])

            let objectFile = #"{"users": [{"username": "carol", "passwordHash": "\#(Fixtures.bobHash)"}]}"#
            try Data(objectFile.utf8).write(to: directory.url.appendingPathComponent("more.json"))
            let onlyFile = try AuthConfiguration(usersFile: "more.json").resolve(baseDirectory: directory.url)
            #expect(onlyFile.users.usernames == ["carol"])
        }
    }

    @Test func usersFileProblemsAreReported() throws {
        try withTemporaryDirectoryNonAsync { directory in
            let missing = try #require(resolveError(AuthConfiguration(usersFile: "nope.json"), base: directory.url))
            #expect(missing.code == .invalidConfiguration)
            #expect(missing.message.contains("nope.json"))

            let duplicate = #"[{"username": "alice", "passwordHash": "\#(Fixtures.bobHash)"}]"#
            try Data(duplicate.utf8).write(to: directory.url.appendingPathComponent("users.json"))
            let configuration = AuthConfiguration(
                users: [.init(username: "alice", passwordHash: Fixtures.aliceHash)],
                usersFile: "users.json"
            )
            let error = try #require(resolveError(configuration, base: directory.url))
            #expect(error.message.contains("duplicate username \"alice\""))

            try Data(#"[{"username": "x", "passwordHash": 1}]"#.utf8).write(to: directory.url.appendingPathComponent("bad.json"))
            let bad = try #require(resolveError(AuthConfiguration(usersFile: "bad.json"), base: directory.url))
            #expect(bad.message.contains("[0].passwordHash"))
        }
    }

    @Test func userRecordsDoNotPrintHashes() {
        let record = AuthConfiguration.UserRecord(username: "alice", passwordHash: Fixtures.aliceHash)
        let configuration = AuthConfiguration(users: [record])
        #expect(!allRenderings(of: record).contains(Fixtures.aliceHash))
        #expect(!allRenderings(of: configuration).contains(Fixtures.aliceHash))
    }
}

/// Synchronous variant of `withTemporaryDirectory`.
func withTemporaryDirectoryNonAsync(_ body: (TemporaryDirectory) throws -> Void) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try body(directory)
}
