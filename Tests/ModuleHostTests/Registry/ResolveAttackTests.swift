import Foundation
import Synchronization
import Testing
@testable import ModuleHost
import ModuleHostTesting

/// An outsider's attack on the resolve: lock observation, re-entrancy and growth here, races in
/// ``ResolveAttacks/ConcurrentResolveAttackTests``. Both suites are nested in this one so that they run one test at a
/// time: their tests count the live attack instances in ``AttackCensus``, which any of them changes.
@Suite("Attack: resolve", .serialized, .timeLimit(.minutes(5)))
struct ResolveAttacks {}

extension ResolveAttacks {
    /// Lock observation: a test holds the registry's `condition` on one thread and resolves on another. A resolve of a
    /// cached service (a warm one) takes only the cache's short lock and finishes; one that needs the registry's lock
    /// waits until the test lets go (and the test reports it).
    @Suite("Locks, re-entrancy and growth")
    struct ResolveAttackTests: ResolveAttackSuite {
        /// Resolves the service once, so that it is cached; whether it is.
        private func warmUp<Service: Sendable>(_ manager: ModuleManager, _ type: Service.Type) throws -> Bool {
            _ = try manager.bridge.resolve(Service.self)
            return manager.registry.cache.service(Service.self) != nil
        }

        /// Runs `body` on another thread while this thread holds the registry's lock; true if it finished meanwhile.
        private func finishesWhileRegistryIsLocked(_ manager: ModuleManager, _ body: @escaping @Sendable () -> Void) -> Bool {
            manager.registry.condition.lock()
            let done = onNewThread(body)
            let finished = done.wait(seconds: 30)
            manager.registry.condition.unlock()
            _ = done.wait(seconds: 10)
            return finished
        }

        // MARK: Lock observation

        @Test func controlAWarmServiceResolveFinishesWhileTheRegistryIsLocked() throws {
            let manager = try manager()
            #expect(try warmUp(manager, AttackBaseService.self))
            #expect(finishesWhileRegistryIsLocked(manager) { _ = try? manager.bridge.resolve(AttackBaseService.self) })
            #expect(finishesWhileRegistryIsLocked(manager) { _ = try? manager.bridge.resolve(.atkBase) })
        }

        /// `resolveIfProvided` of a warm service takes no registry lock either (`registry.provides` answers from the
        /// registration table, not under the registry's condition).
        @Test func aWarmResolveIfProvidedTakesNoRegistryLock() throws {
            let manager = try manager()
            #expect(try warmUp(manager, AttackBaseService.self))
            #expect(finishesWhileRegistryIsLocked(manager) { _ = try? manager.bridge.resolveIfProvided(AttackBaseService.self) },
                    "a warm resolveIfProvided waited for the registry's lock")
        }

        /// The services of an injected module are cached like any other (they used to be returned without being
        /// stored, so every resolve of them ran the slow path: locks, a load() and a dynamic cast, forever).
        @Test func theServiceOfAnInjectedModuleBecomesWarm() throws {
            let manager = try manager()
            let stand_in = AttackBaseModule(context: ModuleManager())
            manager.inject(stand_in, for: .atkBase)
            for _ in 0..<1_000 { _ = try manager.bridge.resolve(AttackBaseService.self) }
            #expect(manager.registry.cache.service(AttackBaseService.self) != nil,
                    "after 1,000 resolves the injected module's service is still not cached")
            #expect(finishesWhileRegistryIsLocked(manager) { _ = try? manager.bridge.resolve(AttackBaseService.self) },
                    "a resolve of an injected module's service waited for the registry's lock")
        }

        // MARK: Re-entrancy

        @Test func resolvesFromEveryHookOfAModule() async throws {
            let manager = try manager()
            try manager.register(AttackReentrantModule.self)
            #expect(try warmUp(manager, AttackBaseService.self))
            let module = try manager.bridge.resolve(AttackReentrantService.self)
            manager.beginUserSession(with: "alice")
            _ = try await manager.initiator.start()
            manager.endUserSession(with: "alice")
            _ = try manager.releaseModule(.atkBase)  // releases the re-entrant module too (it requires base)
            let hooks = module.resolvedInHooks
            #expect(hooks.contains("didLoad"))
            #expect(hooks.contains("authenticate"))
            #expect(hooks.contains("deauthenticate"))
            #expect(hooks.contains("startup"))
            #expect(hooks.contains("willUnload"))
            #expect(hooks.allSatisfy { !$0.contains("failed") }, "\(hooks)")
        }

        /// Releasing a module lets go of the service objects only its cache box held once every lock is released, so a
        /// service whose deinit calls back into the manager (here `bridge.provides`, which takes the cache's lock) does
        /// not deadlock the release (it did, and already did before the warm resolve went lock-free). README: "No lock
        /// is held while module code runs."
        @Test func aServiceDeinitThatCallsTheManagerDoesNotDeadlockARelease() async throws {
            let manager = try manager()
            let calledBack = Atomic<Bool>(false)
            AttackDeinitHook.shared.hook.withLock {
                $0 = { [weak manager] in
                    _ = manager?.bridge.provides(AttackColdService.self)
                    calledBack.store(true, ordering: .sequentiallyConsistent)
                }
            }
            defer { AttackDeinitHook.shared.hook.withLock { $0 = nil } }
            _ = try warmUp(manager, AttackFreshService.self)
            let released = onNewThread { _ = try? manager.releaseModule(.atkFresh) }
            #expect(await released.waited(seconds: 30), "releaseModule deadlocked in the service's deinit (the thread stays stuck)")
            let didCallBack = calledBack.load(ordering: .sequentiallyConsistent)
            #expect(didCallBack)
        }

        // MARK: Growth

        /// Load/release cycles free every instance.
        @Test func loadReleaseCyclesFreeEverything() throws {
            let manager = try manager()
            let liveBefore = AttackCensus.live.load(ordering: .sequentiallyConsistent)
            for _ in 0..<2_000 {
                for _ in 0..<12 { _ = try manager.bridge.resolve(AttackTopService.self) }
                _ = try manager.releaseModule(.atkBase)
            }
            // Nothing this test made is left (objects an earlier test left behind may go meanwhile, hence "at most").
            #expect(AttackCensus.live.load(ordering: .sequentiallyConsistent) <= liveBefore)
        }

        /// Many distinct services in one cache: each resolves to its own, first through the bridge, then from the cache.
        @Test func manyProvidedServicesEachResolveToTheirOwn() throws {
            let manager = ModuleManager()
            var depth = 0
            withAttackServiceTypes(600) { type in
                manager.attackProvide(type, depth: depth)
                depth += 1
            }
            for _ in 0..<2 { withAttackServiceTypes(600) { type in manager.attackResolve(type) } }
            var expected = 0
            var wrong = 0
            withAttackServiceTypes(600) { type in
                if resolvedDepth(manager, type) != expected { wrong += 1 }
                expected += 1
            }
            #expect(wrong == 0)
        }

        private func resolvedDepth<T: AttackNestProtocol>(_ manager: ModuleManager, _ type: T.Type) -> Int? {
            guard let value = manager.registry.cache.service(T.self) else { return nil }
            return (value as? any AttackDepth)?.depthValue
        }
    }
}

protocol AttackDepth {
    var depthValue: Int { get }
}
extension AttackNest: AttackDepth {
    var depthValue: Int { depth }
}

/// What the attack suites share: a manager with the attack modules registered.
protocol ResolveAttackSuite {}

extension ResolveAttackSuite {
    func manager() throws -> ModuleManager {
        let manager = ModuleManager()
        try manager.register(AttackBaseModule.self)
        try manager.register(AttackTopModule.self)
        try manager.register(AttackFreshModule.self)
        try manager.register(AttackColdModule.self)
        return manager
    }
}
