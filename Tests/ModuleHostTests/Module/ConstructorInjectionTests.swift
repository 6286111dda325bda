import Foundation
import Testing
@testable import ModuleHost
import ModuleHostTesting

protocol InjectionStore: Sendable {
    func next() -> Int
}

protocol InjectionGreeter: Sendable {
    func greet() -> String
}

extension ModuleIdentifier {
    static let injectionStore: ModuleIdentifier = "test.injection.store"
}

/// A store whose set-up is in the one hook, `moduleDidLoad(with:)`; it counts in a lock.
final class HookedStoreModule: ModuleProtocol, InjectionStore {
    static let moduleIdentifier: ModuleIdentifier = .injectionStore
    static let providedServices: [ProvidedService] = [.service(InjectionStore.self, from: HookedStoreModule.self) { $0 }]
    private let count = Locked(0)
    private let loaded = Locked(false)
    init(context: any ModuleContext) {}
    func moduleDidLoad(with context: any ModuleContext) { loaded.withLock { $0 = true } }
    func next() -> Int {
        count.withLock { count in
            count += loaded.withLock { $0 } ? 1 : 1_000
            return count
        }
    }
    func moduleWillUnload() { InjectionLog.shared.record("unload store") }
}

/// Constructor injection: what it requires is handed to it at creation and kept in a `let`.
final class InjectedGreeterModule: ModuleProtocol, InjectionGreeter {
    static let moduleIdentifier: ModuleIdentifier = "test.injection.greeter"
    static let requiredModules: [ModuleIdentifier] = [.injectionStore]
    static let providedServices: [ProvidedService] = [.service(InjectionGreeter.self, from: InjectedGreeterModule.self) { $0 }]
    private let store: any InjectionStore

    init(context: any ModuleContext) throws {
        store = try context.bridge.resolve(InjectionStore.self)
    }

    func greet() -> String { "hello #\(store.next())" }
    func moduleWillUnload() { InjectionLog.shared.record("unload greeter") }
}

/// Requires a service nobody provides: its `init(context:)` throws.
final class InjectedFailingModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.injection.failing"
    private let greeter: any InjectionGreeter
    init(context: any ModuleContext) throws {
        greeter = try context.bridge.resolve(InjectionGreeter.self)
    }
}

/// The form that takes the context, counting its calls.
final class ContextFormModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.injection.context-form"
    let loaded = Locked(0)
    init(context: any ModuleContext) {}
    func moduleDidLoad(with context: any ModuleContext) throws { loaded.withLock { $0 += 1 } }
}

/// A set-up hook that fails: its error fails the load, as one from `init(context:)` does.
final class FailingHookModule: ModuleProtocol {
    struct SetUpFailed: Error {}
    static let moduleIdentifier: ModuleIdentifier = "test.injection.failing-hook"
    init(context: any ModuleContext) {}
    func moduleDidLoad(with context: any ModuleContext) throws { throw SetUpFailed() }
}

final class InjectionLog: Sendable {
    static let shared = InjectionLog()
    private let events = Locked<[String]>([])
    func record(_ event: String) { events.withLock { $0.append(event) } }
    func take() -> [String] {
        events.withLock { events in
            defer { events = [] }
            return events
        }
    }
}

/// A module is handed what it needs when it is created, through its one initializer, `init(context:)`.
@Suite("Constructor injection", .serialized)
struct ConstructorInjectionTests {
    @Test func anInjectedModuleAndAHookedModuleLoadResolveAndUnloadTogether() async throws {
        _ = InjectionLog.shared.take()
        let manager = ModuleManager()
        try manager.register(HookedStoreModule.self)
        try manager.register(InjectedGreeterModule.self)
        let greeter = try manager.bridge.resolve(InjectionGreeter.self)
        #expect(greeter.greet() == "hello #1", "the store's moduleDidLoad ran")
        #expect(greeter.greet() == "hello #2", "one store, handed to the greeter once")
        #expect(await manager.unloadAll().map(\.module) == ["test.injection.greeter", "test.injection.store"])
        #expect(InjectionLog.shared.take() == ["unload greeter", "unload store"])
    }

    @Test func anErrorThrownByInitWithContextFailsTheLoad() throws {
        let manager = ModuleManager()
        try manager.register(InjectedFailingModule.self)
        let error = #expect(throws: ResolutionError.self) { try manager.bridge.resolve(InjectedFailingModule.moduleIdentifier) }
        #expect(error?.code == .loadFailed)
        #expect(manager.modules.first?.state == .failed)
    }

    @Test func theHookIsCalledOnceWhenTheManagerLoadsTheModule() throws {
        let manager = ModuleManager()
        try manager.register(ContextFormModule.self)
        let module = try #require(try manager.bridge.resolve(ContextFormModule.moduleIdentifier) as? ContextFormModule)
        #expect(module.loaded.withLock { $0 } == 1)
        _ = try manager.bridge.resolve(ContextFormModule.moduleIdentifier)
        #expect(module.loaded.withLock { $0 } == 1, "a second resolve does not call it again")
    }

    @Test func aModuleMadeByHandWithAManagerIsMadeWithItsInitializer() throws {
        let manager = ModuleManager()
        try manager.register(HookedStoreModule.self)
        #expect(try InjectedGreeterModule(context: manager).greet() == "hello #1")
    }

    @Test func anErrorThrownByTheHookFailsTheLoad() throws {
        let manager = ModuleManager()
        try manager.register(FailingHookModule.self)
        let error = #expect(throws: ResolutionError.self) { try manager.bridge.resolve(FailingHookModule.moduleIdentifier) }
        #expect(error?.code == .loadFailed)
        #expect(error?.underlyingError is FailingHookModule.SetUpFailed)
        #expect(manager.modules.first?.state == .failed)
    }
}
