import Foundation
import Synchronization
import Testing
@testable import ModuleHost

/// A service whose instances are numbered, so a reader can tell an older one from a newer one.
protocol NumberedService: AnyObject, Sendable {
    var number: Int { get }
}

final class Numbered: NumberedService {
    let number: Int
    init(_ number: Int) { self.number = number }
}

/// Provides `NumberedService` itself; counts its instances alive.
final class NumberedProvider: ModuleProtocol, NumberedService {
    static let moduleIdentifier: ModuleIdentifier = "warm.numbered"
    static let providedServices: [ProvidedService] = [.service(NumberedService.self, from: NumberedProvider.self) { $0 }]
    let number = 0
    init(context: any ModuleContext) {}
}

/// An object whose identity serves as a key.
final class KeyToken: Sendable {}

@Suite("Warm resolution: lock-free snapshots", .timeLimit(.minutes(5)))
struct WarmResolutionTests {
    @Test func aBoxKeepsAValueOfAnyLayoutAsItsTypeAndReleasesIt() {
        struct Empty: Sendable, Equatable {}
        struct Holder: Sendable { let token: KeyToken; let name: String }
        weak var released: KeyToken?
        do {
            let token = KeyToken()
            released = token
            let holder = ServiceBox(Holder(token: token, name: "a name longer than a small string's fifteen bytes"))
            #expect(holder.value(as: Holder.self).token === token)
            #expect(holder.value(as: Holder.self).name.hasPrefix("a name longer"))
            #expect(holder.holds(Holder.self) && !holder.holds(KeyToken.self))
            let existential = ServiceBox(Numbered(9) as any NumberedService)
            #expect(existential.value(as: (any NumberedService).self).number == 9)
            #expect(existential.holds((any NumberedService).self) && !existential.holds(Numbered.self))
            let opaque = ServiceBox(Holder(token: token, name: "in an opaque existential") as any Sendable)
            #expect((opaque.value(as: (any Sendable).self) as? Holder)?.token === token)
            #expect(ServiceBox(Empty()).value(as: Empty.self) == Empty())
            let wide = SIMD8<Double>(1, 2, 3, 4, 5, 6, 7, 8)
            #expect(ServiceBox(wide).value(as: SIMD8<Double>.self) == wide)
        }
        #expect(released == nil, "a box releases the value it holds")
    }

    @Test func aSnapshotFindsEveryServiceItHoldsAndNoOther() {
        let keys = (0..<1_000).map { _ in KeyToken() }
        let boxes = keys.indices.map { ServiceBox($0) }
        let services = Dictionary(uniqueKeysWithValues: zip(keys.map(ObjectIdentifier.init), boxes))
        let snapshot = ResolutionSnapshot(modules: [:], services: services)
        for (key, box) in zip(keys, boxes) {
            #expect(snapshot.serviceBox(ObjectIdentifier(key))?.takeUnretainedValue() === box)
        }
        let others = (0..<1_000).map { _ in KeyToken() }
        #expect(others.allSatisfy { snapshot.serviceBox(ObjectIdentifier($0)) == nil })
        #expect(ResolutionSnapshot().serviceBox(ObjectIdentifier(keys[0])) == nil)
    }

    @Test func aResolvedServiceIsPublishedForLockFreeReads() throws {
        let manager = ModuleManager()
        try manager.register(NumberedProvider.self)
        #expect(manager.registry.warm.service(NumberedService.self) == nil, "nothing is published before a load")
        let first = try manager.bridge.resolve(NumberedService.self)
        // The first warm lookup misses the snapshot, finds the service in the cache and publishes it.
        _ = try manager.bridge.resolve(NumberedService.self)
        #expect(manager.registry.warm.service(NumberedService.self) === first)
        #expect(manager.registry.warm.module(NumberedProvider.moduleIdentifier) === first as AnyObject)
    }

    @Test func aReleasedModuleIsFreedThoughItWasPublished() throws {
        let manager = ModuleManager()
        try manager.register(NumberedProvider.self)
        weak let instance = try warmResolves(manager)
        #expect(instance != nil, "the loaded module is alive")
        _ = try manager.releaseModule(NumberedProvider.moduleIdentifier)
        #expect(instance == nil, "no snapshot keeps a released module alive")
        #expect(manager.registry.warm.service(NumberedService.self) == nil)
    }

    /// Resolves the service until it is read from the snapshot; returns the provider.
    private func warmResolves(_ manager: ModuleManager) throws -> NumberedProvider? {
        for _ in 0..<10 { _ = try manager.bridge.resolve(NumberedService.self) }
        return manager.registry.warm.service(NumberedService.self) as? NumberedProvider
    }

    /// Replacements race two reader threads. A replacement returns only when no reader can still see what it
    /// replaced, so no read that starts after replacement `n` returned may see a number below `n`.
    @Test func noReadSeesWhatAReplacementThatReturnedReplaced() async {
        let cache = ResolutionCache()
        cache.inject(Numbered(0) as any NumberedService, as: (any NumberedService).self)
        let replaced = Atomic<Int>(0)
        let finished = Atomic<Bool>(false)
        let stale = Atomic<Int>(0)
        let warmReads = Atomic<Int>(0)
        let readersStarted = Atomic<Int>(0)
        let rounds = 300
        let allReturned = await onThreads(3) { index in
            guard index > 0 else {
                while readersStarted.load(ordering: .sequentiallyConsistent) < 2 { sched_yield() }
                for number in 1...rounds {
                    cache.inject(Numbered(number) as any NumberedService, as: (any NumberedService).self)
                    replaced.store(number, ordering: .sequentiallyConsistent)
                    // Let the readers rebuild the snapshot and read it before the next replacement clears it, so
                    // that the lock-free path is raced, however slowly the readers run (under a sanitizer, say).
                    let seen = warmReads.load(ordering: .relaxed)
                    yieldUntil { warmReads.load(ordering: .relaxed) != seen }
                }
                finished.store(true, ordering: .sequentiallyConsistent)
                return
            }
            readersStarted.add(1, ordering: .sequentiallyConsistent)
            while !finished.load(ordering: .sequentiallyConsistent) {
                let floor = replaced.load(ordering: .sequentiallyConsistent)
                // The snapshot first; on a miss, the cache (whose lookups rebuild the snapshot in time).
                let warm = cache.warm.service((any NumberedService).self)
                if warm != nil { warmReads.add(1, ordering: .relaxed) }
                guard let service = warm ?? cache.service((any NumberedService).self) else { continue }
                if service.number < floor { stale.add(1, ordering: .relaxed) }
            }
        }
        #expect(allReturned)
        #expect(stale.load(ordering: .relaxed) == 0)
        #expect(warmReads.load(ordering: .relaxed) > 0, "the readers read the snapshots")
        #expect(cache.service((any NumberedService).self)?.number == rounds)
    }

    @Test func threadsThatEndHandTheirSlotsOn() {
        let cache = ResolutionCache()
        cache.inject(Numbered(7) as any NumberedService, as: (any NumberedService).self)
        _ = cache.service((any NumberedService).self)  // this thread's slot exists before counting
        // One slot per thread would add 64; ended threads' slots are reused. Other tests' threads may add slots
        // meanwhile: then it is measured again, from above their peak (a leak would add 64 again).
        var growth = Int.max
        for _ in 0..<2 where growth >= 32 {
            let before = SnapshotReaders.slotCount
            for _ in 0..<64 {
                runToEndOnNewThread { _ = cache.warm.service((any NumberedService).self) }
            }
            growth = SnapshotReaders.slotCount - before
        }
        #expect(growth < 32, "64 threads that ended one after another added \(growth) slots")
    }

    /// Runs `body` on a new thread and returns once that thread has ended (its thread-local destructors run).
    private func runToEndOnNewThread(_ body: @escaping @Sendable () -> Void) {
        final class Work: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var thread = pthread_t()
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        let created = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Work>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, work)
        #expect(created == 0)
        if created == 0 { pthread_join(thread, nil) }
    }
}

extension ResolutionCache {
    /// The cached (or injected) service of static type `Service`, as the registry reads it: through its box.
    func service<Service: Sendable>(_ type: Service.Type) -> Service? {
        serviceBox(ObjectIdentifier(Service.self))?.value(as: Service.self)
    }
}
