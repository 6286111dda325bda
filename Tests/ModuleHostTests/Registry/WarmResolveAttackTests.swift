import Foundation
import Synchronization
import Testing
@testable import ModuleHost
import ModuleHostTesting

/// An outsider's attack on the warm resolve: races, re-entrancy, lock observation.
///
/// Lock observation: a test holds the registry's `condition` on one thread and resolves on another. A warm resolve
/// takes only the cache's short lock and finishes; one that needs the registry's lock waits until the test lets go
/// (and the test reports it).
@Suite("Attack: warm resolve", .serialized, .timeLimit(.minutes(5)))
struct WarmResolveAttackTests {
    private func manager() throws -> ModuleManager {
        let manager = ModuleManager()
        try manager.register(AttackBaseModule.self)
        try manager.register(AttackTopModule.self)
        try manager.register(AttackFreshModule.self)
        try manager.register(AttackColdModule.self)
        return manager
    }

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

    // MARK: Races

    /// Readers resolve services and modules while writers release, unload everything, inject and remove
    /// injections of modules and services. Checks: no crash or hang, every object read is intact, and once all
    /// of it is released and the injections removed, every instance made is freed.
    @Test(arguments: [false, true])
    func readersRaceReleasesUnloadsAndInjections(useFreshService: Bool) async throws {
        let manager = try manager()
        let liveBefore = AttackCensus.live.load(ordering: .sequentiallyConsistent)
        let stop = Atomic<Bool>(false)
        let torn = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        let failures = Locked<[String]>([])
        let deadline = Date().addingTimeInterval(3)
        // The writers stop after three seconds and once the readers have read enough to race them; a starved
        // machine stretches the window (to twenty seconds at most) rather than failing the count.
        let hardDeadline = Date().addingTimeInterval(20)
        let finished = await onThreads(8, seconds: 120) { index in
            switch index {
            case 0..<4:
                while !stop.load(ordering: .relaxed) {
                    do {
                        let base = try manager.bridge.resolve(AttackBaseService.self)
                        let top = try manager.bridge.resolve(AttackTopService.self)
                        let module = try manager.bridge.resolve(.atkBase)
                        if !base.isIntact || !top.isIntact || !(module as? AttackCanary)!.isIntact { torn.add(1, ordering: .relaxed) }
                        if useFreshService {
                            let fresh = try manager.bridge.resolve(AttackFreshService.self)
                            if !fresh.isIntact { torn.add(1, ordering: .relaxed) }
                        }
                        reads.add(1, ordering: .relaxed)
                    } catch {
                        failures.withLock { if $0.count < 5 { $0.append("\(error)") } }
                    }
                }
            case 4:
                while Date() < deadline || (reads.load(ordering: .relaxed) <= 100 && Date() < hardDeadline) {
                    _ = try? manager.releaseModule(.atkBase)
                }
                stop.store(true, ordering: .relaxed)
            case 5:
                while !stop.load(ordering: .relaxed) { manager.unloadAllNow(); usleep(200) }
            case 6:
                while !stop.load(ordering: .relaxed) {
                    manager.inject(AttackBaseModule(context: ModuleManager()), for: .atkBase)
                    manager.removeInjection(for: .atkBase)
                }
            default:
                while !stop.load(ordering: .relaxed) {
                    manager.provide(AttackFreshObject(onDeinit: nil) as any AttackFreshService, as: (any AttackFreshService).self)
                    manager.removeInjection(as: (any AttackFreshService).self)
                    manager.provide(AttackFreshObject(onDeinit: nil) as any AttackFreshService, as: (any AttackFreshService).self)
                    manager.removeInjection(as: (any AttackFreshService).self)
                }
            }
        }
        #expect(finished, "a thread hung")
        #expect(torn.load(ordering: .relaxed) == 0)
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(reads.load(ordering: .relaxed) > 100)
        manager.unloadAllNow()
        // At most as many as before: an earlier test's objects may be freed meanwhile, by its threads ending.
        #expect(AttackCensus.live.load(ordering: .sequentiallyConsistent) <= liveBefore,
                "instances still alive after everything was released: the cache keeps them")
    }

    /// No resolve that starts after `releaseModule` returned may hand out what it released, on the warm path
    /// (module by identifier and service) or the slow one.
    @Test func noResolveThatStartsAfterAReleaseReturnedSeesTheReleasedInstance() async throws {
        let manager = try manager()
        let stale = Atomic<Int>(0)
        let checked = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let readersStarted = Atomic<Int>(0)
        // The work is bounded by count (200 releases, each waiting at most 50 ms for a reader), so a loaded
        // two-core machine takes longer but finishes; the 120 seconds only guard against a deadlock.
        let finished = await onThreads(4, seconds: 120) { index in
            guard index > 0 else {
                // Releases start once the readers read, and each waits (boundedly) for a reader to check an
                // instance before the next, so the readers race every release however slowly they are scheduled.
                while readersStarted.load(ordering: .sequentiallyConsistent) < 3 { sched_yield() }
                for round in 1...200 {
                    AttackCensus.releaseRunning.store(round, ordering: .sequentiallyConsistent)
                    _ = try? manager.releaseModule(.atkBase)
                    AttackCensus.releasesReturned.store(round, ordering: .sequentiallyConsistent)
                    let seen = checked.load(ordering: .relaxed)
                    yieldUntil { checked.load(ordering: .relaxed) != seen }
                }
                stop.store(true, ordering: .sequentiallyConsistent)
                return
            }
            readersStarted.add(1, ordering: .sequentiallyConsistent)
            while !stop.load(ordering: .sequentiallyConsistent) {
                let floor = AttackCensus.releasesReturned.load(ordering: .sequentiallyConsistent)
                let service = index == 1
                    ? try? manager.bridge.resolve(AttackBaseService.self)
                    : (try? manager.bridge.resolve(.atkBase)) as? AttackBaseService
                guard let service else { continue }
                checked.add(1, ordering: .relaxed)
                let unloadedIn = service.unloadedInRelease
                if unloadedIn != 0, unloadedIn <= floor { stale.add(1, ordering: .relaxed) }
            }
        }
        AttackCensus.releaseRunning.store(0, ordering: .sequentiallyConsistent)
        AttackCensus.releasesReturned.store(0, ordering: .sequentiallyConsistent)
        #expect(finished)
        #expect(stale.load(ordering: .relaxed) == 0)
        #expect(checked.load(ordering: .relaxed) > 100)
    }

    /// At the cache: each injection replaces a service object that only the cache holds,
    /// so it is freed once the replacement has let go of it; readers copying the service out must never see a freed one.
    @Test func readersNeverSeeAServiceFreedByAReplacement() async {
        let cache = ResolutionCache()
        cache.inject(AttackFreshObject(onDeinit: nil) as any AttackFreshService, as: (any AttackFreshService).self)
        let stop = Atomic<Bool>(false)
        let torn = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        let readersStarted = Atomic<Int>(0)
        // Bounded by count as above; the 120 seconds only guard against a deadlock.
        let finished = await onThreads(4, seconds: 120) { index in
            guard index > 0 else {
                // Replacements start once the readers read, so that they race them.
                while readersStarted.load(ordering: .sequentiallyConsistent) < 3 { sched_yield() }
                for _ in 0..<200 {
                    cache.inject(AttackFreshObject(onDeinit: nil) as any AttackFreshService, as: (any AttackFreshService).self)
                    // Let the readers read before the next replacement (see
                    // ResolutionCacheTests.noReadSeesWhatAReplacementThatReturnedReplaced).
                    let seen = reads.load(ordering: .relaxed)
                    yieldUntil { reads.load(ordering: .relaxed) != seen }
                }
                stop.store(true, ordering: .sequentiallyConsistent)
                return
            }
            readersStarted.add(1, ordering: .sequentiallyConsistent)
            while !stop.load(ordering: .relaxed) {
                guard let service = cache.service((any AttackFreshService).self) else { continue }
                reads.add(1, ordering: .relaxed)
                if !service.isIntact { torn.add(1, ordering: .relaxed) }
            }
        }
        #expect(finished)
        #expect(torn.load(ordering: .relaxed) == 0)
        #expect(reads.load(ordering: .relaxed) > 0)
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

protocol AttackDepth {
    var depthValue: Int { get }
}
extension AttackNest: AttackDepth {
    var depthValue: Int { depth }
}
