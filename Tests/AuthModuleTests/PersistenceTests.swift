import AuthInterface
import Foundation
import Testing

@testable import AuthModule

@Suite struct PersistenceTests {
    @Test func sessionsSurviveARestart() async throws {
        try await withTemporaryDirectory { directory in
            let clock = FakeClock()
            let first = try makeAuthenticator(in: directory, clock: clock)
            let user = try await first.logIn(username: "alice", password: Fixtures.alicePassword)

            clock.advance(by: 600)
            let recorder = ChangeRecorder()
            let second = try makeAuthenticator(in: directory, clock: clock, recorder: recorder)
            #expect(second.state == .notAuthenticated(nil))
            let diagnostics = second.restoreSession()
            #expect(diagnostics.map(\.code) == [.sessionRestored])
            #expect(second.state == .authenticated(user))
            #expect(recorder.recorded == [.authenticated(user)])

            // Restoring again while authenticated does nothing.
            #expect(second.restoreSession().isEmpty)

            // Logging out in the second run removes the file for every later run.
            try await second.logOut()
            let third = try makeAuthenticator(in: directory, clock: clock)
            #expect(third.restoreSession().isEmpty)
            #expect(third.state == .notAuthenticated(nil))
        }
    }

    @Test func missingSessionFileIsQuiet() throws {
        try withTemporaryDirectoryNonAsync { directory in
            let auth = try makeAuthenticator(in: directory)
            #expect(auth.restoreSession().isEmpty)
            #expect(auth.state == .notAuthenticated(nil))
            #expect(!FileManager.default.fileExists(atPath: directory.stateDirectory.path))
        }
    }

    @Test func expiredStoredSessionsAreNotRestored() async throws {
        try await withTemporaryDirectory { directory in
            let clock = FakeClock()
            _ = try await makeAuthenticator(in: directory, lifetime: 60, clock: clock)
                .logIn(username: "alice", password: Fixtures.alicePassword)
            clock.advance(by: 61)
            let recorder = ChangeRecorder()
            let next = try makeAuthenticator(in: directory, lifetime: 60, clock: clock, recorder: recorder)
            let diagnostics = next.restoreSession()
            #expect(diagnostics.map(\.code) == [.sessionExpired])
            #expect(next.state == .notAuthenticated(.expired))
            #expect(recorder.recorded.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: directory.sessionFile.path))
        }
    }

    @Test func changedPasswordRevokesStoredSessions() async throws {
        try await withTemporaryDirectory { directory in
            _ = try await makeAuthenticator(in: directory).logIn(username: "alice", password: Fixtures.alicePassword)
            let newHash = Fixtures.cheapHash("through-the-looking-glass")
            let users: [AuthConfiguration.UserRecord] = [
                .init(username: "alice", passwordHash: newHash), .init(username: "bob", passwordHash: Fixtures.bobHash),
            ]
            let next = try makeAuthenticator(in: directory, users: users)
            let diagnostics = next.restoreSession()
            #expect(diagnostics.map(\.code) == [.sessionCredentialsChanged])
            #expect(next.state == .notAuthenticated(.revoked))
            #expect(!FileManager.default.fileExists(atPath: directory.sessionFile.path))
        }
    }

    @Test func removedUserRevokesStoredSessions() async throws {
        try await withTemporaryDirectory { directory in
            _ = try await makeAuthenticator(in: directory).logIn(username: "alice", password: Fixtures.alicePassword)
            let next = try makeAuthenticator(in: directory, users: [.init(username: "bob", passwordHash: Fixtures.bobHash)])
            let diagnostics = next.restoreSession()
            #expect(diagnostics.map(\.code) == [.sessionUserUnknown])
            #expect(diagnostics.first?.message.contains("alice") == true)
            #expect(next.state == .notAuthenticated(.revoked))
        }
    }

    @Test func sessionFileAndDirectoryArePrivate() async throws {
        try await withTemporaryDirectory { directory in
            _ = try await makeAuthenticator(in: directory).logIn(username: "bob", password: Fixtures.bobPassword)
            let fileMode = try permissions(of: directory.sessionFile)
            let directoryMode = try permissions(of: directory.stateDirectory)
            #expect(fileMode == 0o600)
            #expect(directoryMode == 0o700)

            // The file is marked as ours and holds what a restore needs.
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: directory.sessionFile)) as? [String: Any]
            )
            #expect(object["format"] as? String == "app-shell.auth-session")
            #expect(object["version"] as? Int == 2)
            #expect((object["mac"] as? String)?.count == 64)
            #expect(try permissions(of: directory.stateDirectory.appendingPathComponent("session.key")) == 0o600)
            #expect(object["username"] as? String == "bob")
            #expect(object["expiresAt"] is Double)
            #expect((object["token"] as? String)?.count == 64)
            #expect(object["passwordHash"] == nil)
            #expect(!(String(data: try Data(contentsOf: directory.sessionFile), encoding: .utf8) ?? "").contains(Fixtures.bobHash))
        }
    }

    @Test func leftoverTemporaryFilesDoNotDisturb() async throws {
        try await withTemporaryDirectory { directory in
            try directory.createStateDirectory()
            let leftover = directory.stateDirectory.appendingPathComponent(".session.json.deadbeef.tmp")
            try Data("{\"format\": \"app-shell.auth-session\", \"vers".utf8).write(to: leftover)

            let clock = FakeClock()
            let user = try await makeAuthenticator(in: directory, clock: clock)
                .logIn(username: "alice", password: Fixtures.alicePassword)
            let next = try makeAuthenticator(in: directory, clock: clock)
            #expect(next.restoreSession().map(\.code) == [.sessionRestored])
            #expect(next.state == .authenticated(user))
        }
    }

    @Test func staleTemporaryFilesAreCleanedUpAtRestore() throws {
        try withTemporaryDirectoryNonAsync { directory in
            let manager = FileManager.default
            try directory.createStateDirectory()
            let stale = directory.stateDirectory.appendingPathComponent(".session.json.0123.tmp")
            let fresh = directory.stateDirectory.appendingPathComponent(".session.json.4567.tmp")
            let unrelated = directory.stateDirectory.appendingPathComponent("notes.tmp")
            for url in [stale, fresh, unrelated] {
                try Data("x".utf8).write(to: url)
            }
            let old = Date().addingTimeInterval(-3600)
            try manager.setAttributes([.modificationDate: old], ofItemAtPath: stale.path)
            try manager.setAttributes([.modificationDate: old], ofItemAtPath: unrelated.path)

            #expect(try makeAuthenticator(in: directory).restoreSession().isEmpty)
            #expect(!manager.fileExists(atPath: stale.path))
            #expect(manager.fileExists(atPath: fresh.path))
            #expect(manager.fileExists(atPath: unrelated.path))
        }
    }

    @Test func aFailedWriteLeavesTheOldFileIntact() async throws {
        try await withTemporaryDirectory { directory in
            let clock = FakeClock()
            let user = try await makeAuthenticator(in: directory, clock: clock)
                .logIn(username: "alice", password: Fixtures.alicePassword)
            let before = try Data(contentsOf: directory.sessionFile)

            let recorder = ChangeRecorder()
            let failing = try makeAuthenticator(in: directory, clock: clock, recorder: recorder, replaceSessionFile: failingReplace)
            let error = await #expect(throws: AuthError.self) {
                try await failing.logIn(username: "bob", password: Fixtures.bobPassword)
            }
            #expect(error?.code == .storageFailed)
            #expect(failing.state == .notAuthenticated(nil))
            #expect(recorder.recorded.isEmpty)

            #expect(try Data(contentsOf: directory.sessionFile) == before)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.stateDirectory.path)
            #expect(names.sorted() == ["session.json", "session.key"])

            let next = try makeAuthenticator(in: directory, clock: clock)
            _ = next.restoreSession()
            #expect(next.state == .authenticated(user))
        }
    }

    @Test func aStateDirectoryThatCannotBeCreatedGivesATypedError() async throws {
        try await withTemporaryDirectory { directory in
            // A regular file where the directory should be: fails even for root.
            try Data("not a directory".utf8).write(to: directory.stateDirectory)
            let recorder = ChangeRecorder()
            let auth = try makeAuthenticator(in: directory, recorder: recorder)
            var iterator = auth.stateChanges().makeAsyncIterator()
            #expect(await iterator.next() == .notAuthenticated(nil))

            let error = await #expect(throws: AuthError.self) {
                try await auth.logIn(username: "alice", password: Fixtures.alicePassword)
            }
            #expect(error?.code == .storageFailed)
            #expect(error?.message.contains(directory.stateDirectory.path) == true)
            #expect(auth.state == .notAuthenticated(nil))
            #expect(recorder.recorded.isEmpty)
            #expect(auth.restoreSession().map(\.code) == [.sessionFileUnreadable])
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root ignores directory permissions"))
    func aReadOnlyStateDirectoryGivesATypedError() async throws {
        try await withTemporaryDirectory { directory in
            try directory.createStateDirectory()
            #expect(chmod(directory.stateDirectory.path, 0o500) == 0)
            let auth = try makeAuthenticator(in: directory)
            let error = await #expect(throws: AuthError.self) {
                try await auth.logIn(username: "alice", password: Fixtures.alicePassword)
            }
            #expect(error?.code == .storageFailed)
            #expect(auth.state == .notAuthenticated(nil))
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root ignores directory permissions"))
    func logOutInAReadOnlyDirectoryStillEndsTheSession() async throws {
        try await withTemporaryDirectory { directory in
            let auth = try makeAuthenticator(in: directory)
            _ = try await auth.logIn(username: "alice", password: Fixtures.alicePassword)
            #expect(chmod(directory.stateDirectory.path, 0o500) == 0)
            let diagnostics = auth.endSession()
            #expect(diagnostics.map(\.code) == [.sessionFileNotRemoved])
            #expect(auth.takeDiagnostics() == diagnostics)
            #expect(auth.takeDiagnostics().isEmpty)
            #expect(auth.state == .notAuthenticated(.loggedOut))
            // The file was emptied, so no later run restores the session.
            let next = try makeAuthenticator(in: directory)
            #expect(next.restoreSession().map(\.code).contains(.sessionFileCorrupted))
            #expect(next.state == .notAuthenticated(nil))
        }
    }

    private func permissions(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }
}
