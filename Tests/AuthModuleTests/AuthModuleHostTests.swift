import AuthInterface
import Foundation
import ModuleHost
import ModuleHostState
import ModuleHostTesting
import Testing

@testable import AuthModule

/// Observes the host's user session the way any module would; registered next to AuthModule in the tests' manifests.
final class SessionWatcherModule: SessionModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.session-watcher"
    private let seen = Locked<[String]>([])
    init(context: any ModuleContext) {}
    var events: [String] { seen.withLock { $0 } }
    func sessionDidAuthenticate(with session: UserSession) { seen.withLock { $0.append("in \(session.userID)") } }
    func sessionDidDeauthenticate(with session: UserSession) { seen.withLock { $0.append("out \(session.userID)") } }
}

/// AuthModule hosted by a real ModuleManager: manifest config, startup restore, broadcasts.
@Suite("AuthModule in a host")
struct AuthModuleHostTests {
    private func manager(in directory: TemporaryDirectory, notices: NoticeLog<HostNotice>? = nil) throws -> ModuleManager {
        let users = Fixtures.users.map { #"{"username": "\#($0.username)", "passwordHash": "\#($0.passwordHash)"}"# }
        let manifest = """
            {"modules": [{"type": "AuthModule.AuthModule", "config": {"users": [\(users.joined(separator: ","))]}},
                         "AuthModuleTests.SessionWatcherModule"]}
            """
        let manager = ModuleManager()
        let collected = notices
        manager.provide(HostEnvironment(stateDirectory: directory.stateDirectory, manifestDirectory: directory.url) { notice in
            collected?.append(notice)
        }, as: HostEnvironment.self)
        try manager.registerModules(from: Data(manifest.utf8))
        return manager
    }

    @Test func restoresTheSessionAtStartupAndBroadcastsSessionChanges() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try manager(in: directory)
        let watcher = try first.bridge.resolve("test.session-watcher", as: SessionWatcherModule.self)
        let report = try await first.initiator.start()
        #expect(report.record("auth.restore-session")?.state == .succeeded)
        #expect(report.record("auth.restore-session")?.phase == .high)

        let auth = try first.bridge.resolve(AuthService.self)
        _ = try await auth.logIn(username: "alice", password: Fixtures.alicePassword)
        #expect(watcher.events == ["in alice"])
        await first.unloadAll()

        // A new host over the same state directory restores the session in its .high operation.
        let notices = NoticeLog<HostNotice>()
        let second = try manager(in: directory, notices: notices)
        _ = try await second.initiator.start()
        let restored = try second.bridge.resolve(AuthService.self)
        #expect(restored.state.user?.username == "alice")
        #expect(notices.items.contains { $0.module == .auth && $0.message.contains("restored") })

        // The watcher loads after the session was restored, and is told on load.
        #expect(second.session?.userID == "alice")
        let secondWatcher = try second.bridge.resolve("test.session-watcher", as: SessionWatcherModule.self)
        #expect(secondWatcher.events == ["in alice"])
        try await restored.logOut()
        #expect(second.session == nil)
        #expect(secondWatcher.events == ["in alice", "out alice"])
        #expect(restored.state == AuthenticationModel.notAuthenticated(.loggedOut))
    }

    @Test func corruptedSessionFileIsReportedThroughTheHost() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.createStateDirectory()
        let folder = directory.stateDirectory.appendingPathComponent(ModuleIdentifier.auth.rawValue, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data("\u{0}\u{1}garbage".utf8).write(to: folder.appendingPathComponent("session.json"))
        let notices = NoticeLog<HostNotice>()
        let manager = try manager(in: directory, notices: notices)
        let report = try await manager.initiator.start()
        #expect(report.isSuccessful)
        #expect(try manager.bridge.resolve(AuthService.self).state.isAuthenticated == false)
        #expect(notices.items.contains { $0.severity == .warning && $0.module == .auth })
    }

    /// The session lives in the module's own folder of the host's state folder; one an earlier version kept in the
    /// state folder itself (`session.json` and the `session.key` that signed it) is still restored, and moved.
    @Test func aSessionKeptInTheStateFolderByAnEarlierVersionIsRestoredAndMoved() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try manager(in: directory)
        _ = try await first.initiator.start()
        _ = try await first.bridge.resolve(AuthService.self).logIn(username: "alice", password: Fixtures.alicePassword)
        await first.unloadAll()
        let folder = directory.stateDirectory.appendingPathComponent(ModuleIdentifier.auth.rawValue, isDirectory: true)
        let manager = FileManager.default
        #expect(try manager.contentsOfDirectory(atPath: folder.path).sorted() == ["session.json", "session.key"])
        // The layout of an earlier version: both files in the state folder itself.
        for name in ["session.json", "session.key"] {
            try manager.moveItem(at: folder.appendingPathComponent(name), to: directory.stateDirectory.appendingPathComponent(name))
        }
        try manager.removeItem(at: folder)

        let second = try self.manager(in: directory)
        _ = try await second.initiator.start()
        #expect(try second.bridge.resolve(AuthService.self).state.user?.username == "alice")
        #expect(try manager.contentsOfDirectory(atPath: folder.path).sorted() == ["session.json", "session.key"])
        #expect(!manager.fileExists(atPath: directory.sessionFile.path))
        #expect(!manager.fileExists(atPath: directory.stateDirectory.appendingPathComponent("session.key").path))
    }

    @Test func invalidConfigIsAManifestErrorWithItsPath() throws {
        let manager = ModuleManager()
        let error = try #require(throws: ManifestError.self) {
            try manager.registerModules(from: Data(#"{"modules": [{"type": "AuthModule.AuthModule", "config": {"users": [{"username": "x"}]}}]}"#.utf8))
        }
        #expect(error.diagnostics.first?.code == .invalidConfig)
        #expect(error.diagnostics.first?.path.hasPrefix("modules[0].config.users[0]") == true)
        #expect(error.diagnostics.first?.message.contains("passwordHash") == true)
    }
}

/// Collects what modules report through the host, from any thread.
final class NoticeLog<Item: Sendable>: Sendable {
    private let storage = Locked<[Item]>([])
    func append(_ item: Item) { storage.withLock { $0.append(item) } }
    var items: [Item] { storage.withLock { $0 } }
}
