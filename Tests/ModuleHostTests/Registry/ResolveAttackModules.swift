import Foundation
import Synchronization
@testable import ModuleHost

// Came from Attack/, an outsider's attack on the lock-free warm resolve (added in 9e16303);
// now filed under the feature it protects.
// Modules and services for the resolve attacks (ResolveAttackTests, ConcurrentResolveAttackTests); written against the
// lock-free warm resolve, deleted since, and kept as attacks on the cached resolve that replaced it.

extension ModuleIdentifier {
    static let atkBase: ModuleIdentifier = "attack.warm.base"
    static let atkTop: ModuleIdentifier = "attack.warm.top"
    static let atkFresh: ModuleIdentifier = "attack.warm.fresh"
    static let atkCold: ModuleIdentifier = "attack.warm.cold"
    static let atkReentrant: ModuleIdentifier = "attack.warm.reentrant"
}

/// Counts live instances of the attack's objects, and checks a canary on each read.
enum AttackCensus {
    static let live = Atomic<Int>(0)
    static let canaryValue: UInt64 = 0xC0FF_EE00_DEAD_BEEF
    /// The number of the release currently running, and of the last one that returned (see the stale-read test).
    static let releaseRunning = Atomic<Int>(0)
    static let releasesReturned = Atomic<Int>(0)
}

/// An object with a canary that its deinit clears, so a read of a freed (or torn) object is seen.
class AttackCanary: @unchecked Sendable {
    private let canary = Atomic<UInt64>(AttackCensus.canaryValue)
    init() { AttackCensus.live.add(1, ordering: .relaxed) }
    deinit {
        canary.store(0, ordering: .relaxed)
        AttackCensus.live.subtract(1, ordering: .relaxed)
    }
    var isIntact: Bool { canary.load(ordering: .relaxed) == AttackCensus.canaryValue }
}

protocol AttackBaseService: AnyObject, Sendable {
    var isIntact: Bool { get }
    /// The release during which this instance was unloaded (0 while loaded).
    var unloadedInRelease: Int { get }
}

protocol AttackTopService: AnyObject, Sendable {
    var isIntact: Bool { get }
}

/// A service handed out as a fresh object per resolve of its provider, so only the cache's box holds it.
protocol AttackFreshService: AnyObject, Sendable {
    var isIntact: Bool { get }
}

/// A service nobody warms: resolving it goes through the registry's locks.
protocol AttackColdService: AnyObject, Sendable {}

final class AttackBaseModule: AttackCanary, ModuleProtocol, AttackBaseService, @unchecked Sendable {
    static let moduleIdentifier: ModuleIdentifier = .atkBase
    static let providedServices: [ProvidedService] = [.service(AttackBaseService.self, from: AttackBaseModule.self) { $0 }]
    private let unloaded = Atomic<Int>(0)
    var unloadedInRelease: Int { unloaded.load(ordering: .sequentiallyConsistent) }
    init(context: any ModuleContext) { super.init() }
    func moduleWillUnload() {
        unloaded.store(max(1, AttackCensus.releaseRunning.load(ordering: .sequentiallyConsistent)), ordering: .sequentiallyConsistent)
    }
}

final class AttackTopModule: AttackCanary, ModuleProtocol, AttackTopService, @unchecked Sendable {
    static let moduleIdentifier: ModuleIdentifier = .atkTop
    static let requiredModules: [ModuleIdentifier] = [.atkBase]
    static let providedServices: [ProvidedService] = [.service(AttackTopService.self, from: AttackTopModule.self) { $0 }]
    init(context: any ModuleContext) { super.init() }
    func moduleDidLoad(with manager: any ModuleContext) throws {
        // A resolve from inside moduleDidLoad, of a module this one requires (already loaded, maybe warm).
        let base = try manager.bridge.resolve(AttackBaseService.self)
        precondition(base.isIntact)
    }
}

final class AttackFreshObject: AttackCanary, AttackFreshService, @unchecked Sendable {
    /// Called from deinit, if set: code that runs when the last reference to the service goes.
    let onDeinit: (@Sendable () -> Void)?
    init(onDeinit: (@Sendable () -> Void)?) {
        self.onDeinit = onDeinit
        super.init()
    }
    deinit { onDeinit?() }
}

/// What a fresh service's deinit does, set by a test before the service is created.
final class AttackDeinitHook: Sendable {
    static let shared = AttackDeinitHook()
    let hook = Locked<(@Sendable () -> Void)?>(nil)
}

final class AttackFreshModule: AttackCanary, ModuleProtocol, @unchecked Sendable {
    static let moduleIdentifier: ModuleIdentifier = .atkFresh
    static let providedServices: [ProvidedService] = [
        .service(AttackFreshService.self, from: AttackFreshModule.self) { _ in
            AttackFreshObject(onDeinit: AttackDeinitHook.shared.hook.withLock { $0 })
        },
    ]
    init(context: any ModuleContext) { super.init() }
}

final class AttackColdModule: ModuleProtocol, AttackColdService {
    static let moduleIdentifier: ModuleIdentifier = .atkCold
    static let providedServices: [ProvidedService] = [.service(AttackColdService.self, from: AttackColdModule.self) { $0 }]
    init(context: any ModuleContext) {}
}

/// Resolves from every hook a module has: moduleDidLoad, session callbacks, moduleWillUnload, a startup operation.
protocol AttackReentrantService: AnyObject, Sendable {
    var resolvedInHooks: [String] { get }
}

final class AttackReentrantModule: ModuleProtocol, SessionModuleProtocol, AttackReentrantService {
    static let moduleIdentifier: ModuleIdentifier = .atkReentrant
    static let requiredModules: [ModuleIdentifier] = [.atkBase]
    static let providedServices: [ProvidedService] = [.service(AttackReentrantService.self, from: AttackReentrantModule.self) { $0 }]
    static var contributions: [Contribution] { startupOperations.map(Contribution.startupOperation) }
    static let startupOperations: [ModuleStartupOperation] = [
        ModuleStartupOperation("attack.reentrant.op", priority: .high) { context in
            let me = try context.bridge.resolve(AttackReentrantService.self)
            _ = try context.bridge.resolve(AttackBaseService.self)
            (me as? AttackReentrantModule)?.note("startup")
        },
    ]
    private let context = Locked<(any ModuleContext)?>(nil)
    private let hooks = Locked<[String]>([])
    var resolvedInHooks: [String] { hooks.withLock { $0 } }
    init(context: any ModuleContext) {}

    func note(_ hook: String) { hooks.withLock { $0.append(hook) } }

    private func resolveEverything(_ hook: String) {
        guard let context = context.withLock({ $0 }) else { return }
        do {
            _ = try context.bridge.resolve(AttackBaseService.self)
            _ = try context.bridge.resolve(.atkBase)
            _ = try context.bridge.resolveIfProvided(AttackBaseService.self)
            note(hook)
        } catch {
            note("\(hook) failed: \(error)")
        }
    }

    func moduleDidLoad(with manager: any ModuleContext) throws {
        context.withLock { $0 = manager }
        resolveEverything("didLoad")
    }
    func sessionDidAuthenticate(with session: UserSession) { resolveEverything("authenticate") }
    func sessionDidDeauthenticate(with session: UserSession) { resolveEverything("deauthenticate") }
    func moduleWillUnload() { resolveEverything("willUnload") }
}

/// Distinct service types made at run time (`Nest<Nest<...>>`), for tests that need many of them.
struct AttackNest<Inner>: Sendable {
    let depth: Int
}

/// Calls `body` with `count` distinct service types: `AttackNest<Int>`, `AttackNest<AttackNest<Int>>`, ...
func withAttackServiceTypes(_ count: Int, _ body: (any AttackNestProtocol.Type) -> Void) {
    func step<T: AttackNestProtocol>(_ type: T.Type, _ remaining: Int) {
        guard remaining > 0 else { return }
        body(type)
        step(AttackNest<T>.self, remaining - 1)
    }
    step(AttackNest<Int>.self, count)
}

protocol AttackNestProtocol: Sendable {
    init(depth: Int)
}
extension AttackNest: AttackNestProtocol {}

extension ModuleManager {
    /// Provides `type` as its own service (opening the existential for the generic `provide`).
    func attackProvide<T: AttackNestProtocol>(_ type: T.Type, depth: Int) {
        provide(T(depth: depth), as: T.self)
    }
}

extension ModuleManager {
    /// Resolves the service of static type `T` (through the bridge, as an app does).
    func attackResolve<T: AttackNestProtocol>(_ type: T.Type) {
        _ = try? bridge.resolve(T.self)
    }
}
