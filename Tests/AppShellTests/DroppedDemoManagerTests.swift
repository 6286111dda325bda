import AuthInterface
import Foundation
import ModuleHost
import ModuleHostRouting
import ModuleHostState
import ModuleHostTesting
import NumbersInterface
import Testing

@testable import AppShell

/// The demo app's flows, on a manager made as the shell makes it: once the last reference to the manager is dropped,
/// the manager, its router and every module instance it loaded are freed.
@Suite("A dropped demo manager frees what it made", .timeLimit(.minutes(2)))
struct DroppedDemoManagerTests {
    private static let manifestPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("modules.json").path

    /// A manager over the demo manifest, as the shell makes it, with its state in a fresh folder.
    private static func demoManager(state: URL) throws -> ModuleManager {
        let manager = ModuleManager(typeResolver: .runtime(linked: LinkedModuleTypes.byName), concurrency: nil,
                                    reservedCommandNames: ShellCommands.reservedNames)
        try manager.registerModules(atPath: manifestPath)
        let manifestDirectory = URL(fileURLWithPath: manifestPath).deletingLastPathComponent()
        manager.provide(HostEnvironment(stateDirectory: state, manifestDirectory: manifestDirectory) { _ in },
                        as: HostEnvironment.self)
        return manager
    }

    /// Runs `flow` on a fresh demo manager, drops it, and returns what is still alive.
    private func aliveAfter(_ flow: (ModuleManager) async throws -> Void) async throws -> [String] {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("dropped-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let watched: [(String, Weak)] = try await {
            let manager = try Self.demoManager(state: state)
            try await flow(manager)
            return [("manager", Weak(manager)), ("router", Weak(manager.router))]
                + manager.loadedModules().map { ("\(type(of: $0))", Weak($0)) }
        }()
        return watched.filter { $0.1.value != nil }.map(\.0)
    }

    @Test func loadingEveryModule() async throws {
        let alive = try await aliveAfter { manager in
            manager.loadEagerModules()
            _ = try manager.bridge.resolve(AuthService.self)
            _ = try manager.bridge.resolve(NumberFactService.self)
        }
        #expect(alive.isEmpty, "\(alive)")
    }

    @Test func aStartupLeftWaitingForTheHost() async throws {
        let alive = try await aliveAfter { manager in
            _ = try await manager.initiator.start()
        }
        #expect(alive.isEmpty, "\(alive)")
    }

    @Test func aCompletedRun() async throws {
        let alive = try await aliveAfter { manager in
            try await manager.run { _ in _ = try manager.bridge.resolve(NumberFactService.self) }
        }
        #expect(alive.isEmpty, "\(alive)")
    }

    @Test func routesOpenedAndTheirEventsRead() async throws {
        let alive = try await aliveAfter { manager in
            let events = manager.router.events()
            _ = try await manager.router.open("/numbers/fact/28")
            _ = try await manager.router.open("/numbers/lucky")
            _ = try? await manager.router.open("/no/such/route")
            var iterator = events.makeAsyncIterator()
            _ = await iterator.next()
        }
        #expect(alive.isEmpty, "\(alive)")
    }

    @Test func unreadRouteEventsHoldTheManagerUntilTheyAreRead() async throws {
        var kept: AsyncStream<ModuleRouter.Event>?
        let alive = try await aliveAfter { manager in
            kept = manager.router.events()
            _ = try await manager.router.open("/numbers/fact/28")
        }
        #expect(alive.contains("manager"))
        var read = 0
        if let stream = kept {
            kept = nil
            // Ends because the router goes away once the last event holding the manager was read.
            for await _ in stream { read += 1 }
        }
        #expect(read == 2)
    }

    @Test func commandsSessionsReleasesAndReloads() async throws {
        let alive = try await aliveAfter { manager in
            let context = { (arguments: [String], secret: String?) in
                ModuleCommand.Context(arguments: arguments, manager: manager, io: AnsweringIO(secret: secret))
            }
            _ = try await manager.runCommand("login", context: context(["alice"], "wonderland"))
            _ = try await manager.runCommand("fact", context: context(["28"], nil))
            _ = try manager.releaseModule(.numbers)
            _ = try manager.bridge.resolve(NumberFactService.self)
            _ = try await manager.reloadModule(.auth)
            manager.beginUserSession(with: "bob")
        }
        #expect(alive.isEmpty, "\(alive)")
    }

    @Test func aStandInAddedAndRemoved() async throws {
        let alive = try await aliveAfter { manager in
            manager.standIn(for: .numbers, providing: NoFacts() as any NumberFactService)
            _ = try manager.bridge.resolve(NumberFactService.self)
            manager.removeInjection(for: .numbers)
            _ = try manager.bridge.resolve(NumberFactService.self)
        }
        #expect(alive.isEmpty, "\(alive)")
    }
}

/// A weak reference, to see whether something was freed.
private final class Weak: @unchecked Sendable {
    weak var value: AnyObject?

    init(_ value: AnyObject) {
        self.value = value
    }
}

/// Answers a secret prompt with `secret`; writes nothing.
private struct AnsweringIO: ModuleCommand.IO {
    let secret: String?
    func readLine(prompt: String) async -> String? { nil }
    func readSecret(prompt: String) async -> String? { secret }
    func write(_ line: String) {}
}

/// A stand-in for the numbers module that knows no facts.
private final class NoFacts: NumberFactService {
    func fact(about number: Int64) -> NumberFact { NumberFact(number: number, content: "", kind: .parity) }
    func facts(about number: Int64) -> [NumberFact] { [] }
    func randomFact() -> NumberFact { fact(about: 0) }
    func history() -> [NumberFactHistoryEntry] { [] }
    var currentUser: String? { nil }
}
