import AuthModule
import Foundation
import ModuleHost
import Testing

@testable import NumbersModule

final class NoticeLog<Item: Sendable>: Sendable {
    private let storage = Locked<[Item]>([])
    func append(_ item: Item) { storage.withLock { $0.append(item) } }
    var items: [Item] { storage.withLock { $0 } }
}

/// A stand-in AuthService, injected into the bridge: NumbersModule must only see the protocol.
final class StubAuth: AuthService {
    private let current = Locked<AuthenticationModel>(.notAuthenticated(nil))
    func set(_ user: String?) {
        current.withLock {
            $0 = user.map { .authenticated(AuthenticatedUser(username: $0, displayName: $0, authenticatedAt: Date(), expiresAt: .distantFuture)) }
                ?? .notAuthenticated(nil)
        }
    }
    func logIn(username: String, password: String) async throws(AuthError) -> AuthenticatedUser {
        throw AuthError(.invalidConfiguration, "stub")
    }
    func logOut() async {}
    var state: AuthenticationModel { current.withLock { $0 } }
    func stateChanges() -> AsyncStream<AuthenticationModel> { AsyncStream { $0.finish() } }
}

@Suite("NumbersModule in a host")
struct NumbersModuleHostTests {
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("NumbersModuleTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func manager(config: String = "{}", auth: StubAuth? = nil, notices: NoticeLog<String>? = nil) throws -> ModuleManager {
        let manager = ModuleManager()
        manager.inject(HostEnvironment(stateDirectory: directory, manifestDirectory: directory) { notice in
            notices?.append(notice.message)
        }, as: HostEnvironment.self)
        if let auth { manager.inject(auth, as: AuthService.self) }
        try manager.registerModules(from: Data(#"{"modules": [{"type": "NumbersModule.NumbersModule", "config": \#(config)}]}"#.utf8))
        return manager
    }

    @Test func worksAnonymouslyWithoutAuth() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = try manager()
        let report = try await manager.initiator.start()
        #expect(report.record("numbers.warm-primes")?.state == .succeeded)
        #expect(report.record("numbers.load-history")?.state == .succeeded)
        #expect(report.record("numbers.load-history")?.dependencies ?? [] == [])
        let numbers = try manager.bridge.resolve(NumberFactService.self)
        #expect(numbers.fact(about: 28).content.hasPrefix("28 is a perfect number"))
        #expect(numbers.currentUser == nil)
        #expect(numbers.history().map(\.fact.number) == [28])
    }

    @Test func historyIsPerUserAndPersisted() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let auth = StubAuth()
        auth.set("alice")
        let first = try manager(auth: auth)
        _ = try await first.initiator.start()
        let numbers = try first.bridge.resolve(NumberFactService.self)
        #expect(numbers.currentUser == "alice")
        _ = numbers.fact(about: 7)
        _ = numbers.fact(about: 12)
        first.unloadAll()

        auth.set("bob")
        let second = try manager(auth: auth)
        _ = try await second.initiator.start()
        let bobs = try second.bridge.resolve(NumberFactService.self)
        #expect(bobs.history().isEmpty)
        _ = bobs.fact(about: 1)
        second.unloadAll()

        auth.set("alice")
        let third = try manager(auth: auth)
        _ = try await third.initiator.start()
        #expect(try third.bridge.resolve(NumberFactService.self).history().map(\.fact.number) == [7, 12])
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("numbers-history.json").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func sessionBroadcastSwitchesTheHistory() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = try manager()
        let module = try manager.bridge.resolve(.numbers, as: NumbersModule.self)
        let user = AuthenticatedUser(username: "carol", displayName: "Carol", authenticatedAt: Date(), expiresAt: .distantFuture)
        module.sessionDidAuthenticate(with: user)
        #expect(try manager.bridge.resolve(NumberFactService.self).currentUser == "carol")
        module.sessionDidDeauthenticate(with: user)
        #expect(try manager.bridge.resolve(NumberFactService.self).currentUser == nil)
    }

    @Test func historyIsBoundedByTheConfiguredLimit() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = try manager(config: #"{"historyLimit": 3}"#)
        let numbers = try manager.bridge.resolve(NumberFactService.self)
        for number in 1...5 { _ = numbers.fact(about: Int64(number)) }
        #expect(numbers.history().map(\.fact.number) == [3, 4, 5])
    }

    @Test func corruptedHistoryIsReportedAndIgnored() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("[1, 2".utf8).write(to: directory.appendingPathComponent("numbers-history.json"))
        let notices = NoticeLog<String>()
        let manager = try manager(notices: notices)
        let report = try await manager.initiator.start()
        #expect(report.isSuccessful)
        #expect(try manager.bridge.resolve(NumberFactService.self).history().isEmpty)
        #expect(notices.items.contains { $0.contains("not a version 1 NumbersModule history") })
    }

    @Test func configOutOfRangeIsAManifestError() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = try #require(throws: ManifestError.self) { try manager(config: #"{"historyLimit": 0}"#) }
        #expect(error.diagnostics.first?.path == "modules[0].config.historyLimit")
        #expect(error.diagnostics.first?.message.contains("expected a history limit from 1 to 10000") == true)
    }
}
