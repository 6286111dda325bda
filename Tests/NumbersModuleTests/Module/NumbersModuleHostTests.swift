import Foundation
import ModuleHost
import ModuleHostState
import ModuleHostTesting
import NumbersInterface
import Testing
import TestSupport

@testable import NumbersModule

final class NoticeLog<Item: Sendable>: Sendable {
    private let storage = Locked<[Item]>([])
    func append(_ item: Item) { storage.withLock { $0.append(item) } }
    var items: [Item] { storage.withLock { $0 } }
}

@Suite("NumbersModule in a host")
struct NumbersModuleHostTests {
    private let directory: URL

    init() throws {
        directory = try ProcessScratch.folder("NumbersModuleTests")
    }

    /// A host with NumbersModule alone; `user`, when given, has the host's user session before anything loads.
    private func manager(config: String = "{}", user: String? = nil, notices: NoticeLog<String>? = nil) throws -> ModuleManager {
        let manager = ModuleManager()
        manager.provide(HostEnvironment(stateDirectory: directory, manifestDirectory: directory) { notice in
            notices?.append(notice.message)
        }, as: HostEnvironment.self)
        try manager.registerModules(from: Data(#"{"modules": [{"type": "NumbersModule.NumbersModule", "config": \#(config)}]}"#.utf8))
        if let user { manager.beginUserSession(with: user) }
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
        let first = try manager(user: "alice")
        _ = try await first.initiator.start()
        let numbers = try first.bridge.resolve(NumberFactService.self)
        #expect(numbers.currentUser == "alice")
        _ = numbers.fact(about: 7)
        _ = numbers.fact(about: 12)
        await first.unloadAll()

        let second = try manager(user: "bob")
        _ = try await second.initiator.start()
        let bobs = try second.bridge.resolve(NumberFactService.self)
        #expect(bobs.history().isEmpty)
        _ = bobs.fact(about: 1)
        await second.unloadAll()

        let third = try manager(user: "alice")
        _ = try await third.initiator.start()
        #expect(try third.bridge.resolve(NumberFactService.self).history().map(\.fact.number) == [7, 12])
        // In the module's own folder of the host's state folder.
        let attributes = try FileManager.default.attributesOfItem(atPath: historyFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("numbers-history.json").path))
    }

    /// Where the history lives now: `<state>/com.modulehost.numbers/numbers-history.json`.
    private var historyFile: URL {
        directory.appendingPathComponent("com.modulehost.numbers", isDirectory: true).appendingPathComponent("numbers-history.json")
    }

    /// A history an earlier version kept in the state folder itself is still read after the upgrade, and moved
    /// into the module's folder.
    @Test func aHistoryKeptInTheStateFolderByAnEarlierVersionIsStillRead() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try manager(user: "erin")
        _ = try await first.initiator.start()
        _ = try first.bridge.resolve(NumberFactService.self).fact(about: 9)
        await first.unloadAll()
        let legacy = directory.appendingPathComponent("numbers-history.json")
        try FileManager.default.moveItem(at: historyFile, to: legacy)
        try FileManager.default.removeItem(at: historyFile.deletingLastPathComponent())

        let second = try manager(user: "erin")
        _ = try await second.initiator.start()
        #expect(try second.bridge.resolve(NumberFactService.self).history().map(\.fact.number) == [9])
        #expect(FileManager.default.fileExists(atPath: historyFile.path))
        #expect(!FileManager.default.fileExists(atPath: legacy.path))
    }

    @Test func theHostsSessionSwitchesTheHistory() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = try manager()
        let numbers = try manager.bridge.resolve(NumberFactService.self)
        manager.beginUserSession(with: "carol")
        #expect(numbers.currentUser == "carol")
        manager.endUserSession(with: "carol")
        #expect(numbers.currentUser == nil)
    }

    @Test func factsLookedUpBeforeTheHistoryLoadedAreKept() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try manager(user: "dave")
        _ = try first.bridge.resolve(NumberFactService.self).fact(about: 3)
        await first.unloadAll()
        let second = try manager(user: "dave")
        _ = try second.bridge.resolve(NumberFactService.self).fact(about: 4)
        _ = try await second.initiator.start()
        #expect(try second.bridge.resolve(NumberFactService.self).history().map(\.fact.number) == [3, 4])
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
        try FileManager.default.createDirectory(at: historyFile.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try Data("[1, 2".utf8).write(to: historyFile)
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
        #expect(error.diagnostics.first?.message.contains("expected an integer from 1 to 10000, found 0") == true)
    }
}
