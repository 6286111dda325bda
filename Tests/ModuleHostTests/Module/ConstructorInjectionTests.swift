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

/// The seed's form, written as the seed writes it: `init()`, then `moduleDidLoad(with manager: ModuleManager)`
/// (not throwing, handed the manager), which resolves nothing here; it counts in a lock.
final class SeedFormStoreModule: ModuleProtocol, InjectionStore {
    static let moduleIdentifier: ModuleIdentifier = .injectionStore
    static let providedServices: [ProvidedService] = [.service(InjectionStore.self)]
    private let count = Locked(0)
    private let loaded = Locked(false)
    init() {}
    func moduleDidLoad(with manager: ModuleManager) { loaded.withLock { $0 = true } }
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
    static let providedServices: [ProvidedService] = [.service(InjectionGreeter.self)]
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

/// Implements both forms of `moduleDidLoad`, and records which are called.
final class BothFormsModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.injection.both"
    let calls = Locked<[String]>([])
    init() {}
    func moduleDidLoad(with manager: any ModuleContext) throws { calls.withLock { $0.append("context") } }
    func moduleDidLoad(with manager: ModuleManager) throws { calls.withLock { $0.append("manager") } }
}

/// Writes its initializer with the manager's type, beside an `init()`: the near miss of `init(context:)` that would
/// otherwise be passed by in silence (the default would call `init()`).
final class ManagerInitModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.injection.manager-init"
    let madeWith: String
    init() { madeWith = "init()" }
    init(context manager: ModuleManager) throws { madeWith = "init(context: ModuleManager)" }
}

/// The form that takes the context, counting its calls.
final class ContextFormModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.injection.context-form"
    let loaded = Locked(0)
    init() {}
    func moduleDidLoad(with context: any ModuleContext) throws { loaded.withLock { $0 += 1 } }
}

/// The seed's form that fails: its error fails the load, as one from the other form does.
final class FailingSeedFormModule: ModuleProtocol {
    struct SetUpFailed: Error {}
    static let moduleIdentifier: ModuleIdentifier = "test.injection.failing-seed"
    init() {}
    func moduleDidLoad(with manager: ModuleManager) throws { throw SetUpFailed() }
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

/// Issue 24, point 2: a module can be handed what it needs when it is created.
@Suite("Constructor injection", .serialized)
struct ConstructorInjectionTests {
    @Test func anInjectedModuleAndASeedFormModuleLoadResolveAndUnloadTogether() throws {
        _ = InjectionLog.shared.take()
        let manager = ModuleManager()
        try manager.register(SeedFormStoreModule.self)
        try manager.register(InjectedGreeterModule.self)
        let greeter = try manager.bridge.resolve(InjectionGreeter.self)
        #expect(greeter.greet() == "hello #1", "the seed form's moduleDidLoad ran")
        #expect(greeter.greet() == "hello #2", "one store, handed to the greeter once")
        #expect(manager.unloadAll().map(\.module) == ["test.injection.greeter", "test.injection.store"])
        #expect(InjectionLog.shared.take() == ["unload greeter", "unload store"])
    }

    @Test func anErrorThrownByInitWithContextFailsTheLoadLikeOneFromModuleDidLoad() throws {
        let manager = ModuleManager()
        try manager.register(InjectedFailingModule.self)
        let error = #expect(throws: ResolutionError.self) { try manager.bridge.resolve(InjectedFailingModule.moduleIdentifier) }
        #expect(error?.code == .loadFailed)
        #expect(manager.modules.first?.state == .failed)
    }

    /// The manager calls the seed's form, whose default calls the other: a module implementing both gets the
    /// seed's form alone (and may call the other itself).
    @Test func aModuleImplementingBothFormsGetsTheSeedFormOnce() throws {
        let manager = ModuleManager()
        try manager.register(BothFormsModule.self)
        let module = try #require(try manager.bridge.resolve(BothFormsModule.moduleIdentifier) as? BothFormsModule)
        #expect(module.calls.withLock { $0 } == ["manager"])
    }

    /// A test that calls `moduleDidLoad(with: manager)` on a module of the context form, with a `ModuleManager`,
    /// picks the seed form's overload; its default passes the call on, so the module's set-up runs.
    @Test func aDirectCallWithAManagerReachesTheContextForm() throws {
        let manager = ModuleManager()
        try manager.register(ContextFormModule.self)
        let module = ContextFormModule()
        try module.moduleDidLoad(with: manager)
        #expect(module.loaded.withLock { $0 } == 1)
        let loadedByTheManager = try #require(try manager.bridge.resolve(ContextFormModule.moduleIdentifier) as? ContextFormModule)
        #expect(loadedByTheManager.loaded.withLock { $0 } == 1, "called once when the manager loads it")
    }

    @Test func anInitTakingTheManagerIsTheOneTheModuleIsMadeWith() throws {
        let manager = ModuleManager()
        try manager.register(ManagerInitModule.self)
        let module = try #require(try manager.bridge.resolve(ManagerInitModule.moduleIdentifier) as? ManagerInitModule)
        #expect(module.madeWith == "init(context: ModuleManager)")
        // A module of the other form, made by hand with a manager, is made with its own initializer.
        let greeterManager = ModuleManager()
        try greeterManager.register(SeedFormStoreModule.self)
        #expect(try InjectedGreeterModule(context: greeterManager).greet() == "hello #1")
    }

    @Test func anErrorThrownByTheSeedFormFailsTheLoad() throws {
        let manager = ModuleManager()
        try manager.register(FailingSeedFormModule.self)
        let error = #expect(throws: ResolutionError.self) { try manager.bridge.resolve(FailingSeedFormModule.moduleIdentifier) }
        #expect(error?.code == .loadFailed)
        #expect(error?.underlyingError is FailingSeedFormModule.SetUpFailed)
        #expect(manager.modules.first?.state == .failed)
    }

    @Test func anInjectedModuleCreatedWithoutAContextSaysSo() {
        let error = #expect(throws: ResolutionError.self) { _ = try InjectedGreeterModule() }
        #expect(error?.message.contains("init(context:)") == true)
    }
}
