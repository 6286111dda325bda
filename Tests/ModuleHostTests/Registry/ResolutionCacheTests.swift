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

@Suite("Resolution cache: boxes, releases and replacements", .timeLimit(.minutes(5)))
struct ResolutionCacheTests {
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

    @Test func aReleasedModuleIsFreedThoughItsServiceWasResolvedWarm() throws {
        let manager = ModuleManager()
        try manager.register(NumberedProvider.self)
        weak let instance = try warmResolves(manager)
        #expect(instance != nil, "the loaded module is alive")
        _ = try manager.releaseModule(NumberedProvider.moduleIdentifier)
        #expect(instance == nil, "no cached service keeps a released module alive")
        #expect(manager.registry.cache.service(NumberedService.self) == nil)
    }

    /// Resolves the service several times, warm after the first; returns the provider.
    private func warmResolves(_ manager: ModuleManager) throws -> NumberedProvider? {
        for _ in 0..<10 { _ = try manager.bridge.resolve(NumberedService.self) }
        return manager.registry.cache.service(NumberedService.self) as? NumberedProvider
    }

    /// Replacements race two reader threads. A replacement returns only when no reader can still see what it
    /// replaced, so no read that starts after replacement `n` returned may see a number below `n`.
    @Test func noReadSeesWhatAReplacementThatReturnedReplaced() async {
        let cache = ResolutionCache()
        cache.inject(Numbered(0) as any NumberedService, as: (any NumberedService).self)
        let replaced = Atomic<Int>(0)
        let finished = Atomic<Bool>(false)
        let stale = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        let readersStarted = Atomic<Int>(0)
        let rounds = 300
        let allReturned = await onThreads(3) { index in
            guard index > 0 else {
                while readersStarted.load(ordering: .sequentiallyConsistent) < 2 { sched_yield() }
                for number in 1...rounds {
                    cache.inject(Numbered(number) as any NumberedService, as: (any NumberedService).self)
                    replaced.store(number, ordering: .sequentiallyConsistent)
                    // Let the readers read between replacements, however slowly they run (under a sanitizer, say).
                    let seen = reads.load(ordering: .relaxed)
                    yieldUntil { reads.load(ordering: .relaxed) != seen }
                }
                finished.store(true, ordering: .sequentiallyConsistent)
                return
            }
            readersStarted.add(1, ordering: .sequentiallyConsistent)
            while !finished.load(ordering: .sequentiallyConsistent) {
                let floor = replaced.load(ordering: .sequentiallyConsistent)
                guard let service = cache.service((any NumberedService).self) else { continue }
                reads.add(1, ordering: .relaxed)
                if service.number < floor { stale.add(1, ordering: .relaxed) }
            }
        }
        #expect(allReturned)
        #expect(stale.load(ordering: .relaxed) == 0)
        #expect(reads.load(ordering: .relaxed) >= rounds, "the readers read between replacements")
        #expect(cache.service((any NumberedService).self)?.number == rounds)
    }
}

extension ResolutionCache {
    /// The cached (or injected) service of static type `Service`, as the registry reads it: through its box.
    func service<Service: Sendable>(_ type: Service.Type) -> Service? {
        serviceBox(ObjectIdentifier(Service.self))?.value(as: Service.self)
    }
}
