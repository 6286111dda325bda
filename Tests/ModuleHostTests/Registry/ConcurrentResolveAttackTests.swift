import Foundation
import Synchronization
import Testing
@testable import ModuleHost
import ModuleHostTesting

extension ResolveAttacks {
    /// Readers resolve while other threads release, unload, inject and replace: none sees a torn, freed or released
    /// instance, and once everything is released nothing made is kept.
    @Suite("Concurrent resolves")
    struct ConcurrentResolveAttackTests: ResolveAttackSuite {
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
    }
}
