import Foundation
import Testing
@testable import ModuleHost
import TestSupport
import ModuleHostTesting

/// A release racing other threads: it waits for a dependent another thread is loading and releases it too, and no
/// resolve hands out, or caches, an instance released while it ran.
@Suite("Releasing a module: races", .timeLimit(.minutes(5)))
struct ReleaseRaceTests: RegistrySuite {
    @Test func releaseWaitsForADependentAnotherThreadIsLoadingAndReleasesItToo() throws {
        let recorder = LoadRecorder()
        let manager = try manager("RelBaseModule", "RelBlockingModule", recorder: recorder)
        let latch = ReleaseLatch()
        manager.provide(latch, as: ReleaseLatch.self)
        let loadedInstance = Locked<(any ModuleProtocol)?>(nil)
        let loading = onNewThread {
            let module = try? manager.bridge.resolve(.relBlocking)
            loadedInstance.withLock { $0 = module }
        }
        try #require(latch.entered.wait(), "the dependent did not start loading")
        #expect(states(manager) == [.relBase: .loaded, .relBlocking: .loading])

        let released = Locked<Result<[ModuleIdentifier], ResolutionError>?>(nil)
        let releasing = onNewThread {
            let result = Result { () throws(ResolutionError) in try manager.releaseModule(.relBase) }
            released.withLock { $0 = result }
        }
        // While the dependent is still loading, the release must not return.
        #expect(!releasing.wait(seconds: 0.2), "release returned while a dependent was still loading")
        #expect(released.withLock { $0 } == nil)
        latch.proceed.fire()
        try #require(releasing.wait(), "release did not return after the load finished")
        try #require(loading.wait(), "the load did not return")

        #expect(try released.withLock { $0 }?.get() == [.relBlocking, .relBase])
        #expect(recorder.events == ["load base", "load blocking", "unload blocking", "unload base"])
        let blocking = try #require(loadedInstance.withLock { $0 } as? RelBlockingModule)
        #expect(blocking.isUnloaded)
        #expect(states(manager) == [.relBase: .registered, .relBlocking: .registered])
        #expect(try manager.bridge.resolve(.relBlocking) !== blocking)
    }

    @Test func aServiceResolveRacingAReleaseRetriesInsteadOfCachingTheReleasedInstance() throws {
        let recorder = LoadRecorder()
        let manager = try manager("RelGatedProviderModule", recorder: recorder)
        let gate = GateLatch()
        manager.provide(gate, as: GateLatch.self)
        let first = try #require(try manager.bridge.resolve(.relGated) as? RelGatedProviderModule)

        // Another thread's service resolve has loaded `first` and is about to cache its service when the release lands.
        let resolved = Locked<(any GatedService)?>(nil)
        let resolving = onNewThread {
            let service = try? manager.bridge.resolve(GatedService.self)
            resolved.withLock { $0 = service }
        }
        try #require(gate.entered.wait(), "the service resolve did not reach the accessor")
        #expect(try manager.releaseModule(.relGated) == [.relGated])
        gate.proceed.fire()
        try #require(resolving.wait(), "the service resolve did not return")

        let service = try #require(resolved.withLock { $0 })
        #expect(first.isUnloaded)
        #expect(service !== first, "the resolve handed out the instance released while it ran")
        #expect(!service.isUnloaded)
        #expect(try manager.bridge.resolve(GatedService.self) === service)
        #expect(try manager.bridge.resolve(.relGated) === service)
        #expect(recorder.events == ["load gated", "unload gated", "load gated"])
    }

    @Test func aResolveAfterReleaseNeverReturnsAnUnloadedInstance() throws {
        let recorder = LoadRecorder()
        let manager = try manager("RelProviderModule", recorder: recorder)
        let ticks = TickCounter()
        manager.provide(ticks, as: TickCounter.self)
        let stop = Locked(false)
        let violations = LoadRecorder()
        let resolves = Locked(0)

        let started = (0..<3).map { _ in Signal() }
        let resolvers = started.map { running in
            onNewThread {
                while !stop.withLock({ $0 }) {
                    // Any instance whose moduleWillUnload began before this resolve began must not come back.
                    let began = ticks.tick()
                    guard let service = try? manager.bridge.resolve(ReleasableProviderService.self) else {
                        violations.record("resolve failed")
                        continue
                    }
                    if let unloaded = service.unloadTick, unloaded < began {
                        violations.record("resolve begun at \(began) returned an instance unloaded at \(unloaded)")
                    }
                    resolves.withLock { $0 += 1 }
                    running.fire()
                }
            }
        }
        for running in started {
            try #require(running.wait(), "a resolver thread did not start")
        }
        // At least 200 releases, and on until the resolvers have raced them a while (bounded).
        let resolvesBefore = resolves.withLock { $0 }
        var seen: [any ReleasableProviderService] = []  // kept alive so identities are never reused
        var releases = 0
        while releases < 200 || (resolves.withLock { $0 } - resolvesBefore < 3000 && releases < 20_000) {
            let service = try manager.bridge.resolve(ReleasableProviderService.self)
            seen.append(service)
            _ = try manager.releaseModule(.relProvider)
            releases += 1
            #expect(service.unloadTick != nil, "release \(releases): the instance resolved before it was not unloaded")
            let fresh = try manager.bridge.resolve(ReleasableProviderService.self)
            seen.append(fresh)
            #expect(fresh.unloadTick == nil, "release \(releases): a resolve after it returned an unloaded instance")
            #expect(fresh !== service, "release \(releases)")
        }
        stop.withLock { $0 = true }
        for resolver in resolvers {
            try #require(resolver.wait(), "a resolver thread did not stop")
        }
        #expect(violations.events.isEmpty, "\(violations.events.prefix(5))")
        // Every instance but the loaded one was unloaded exactly once.
        let loads = recorder.count(of: "load provider"), unloads = recorder.count(of: "unload provider")
        #expect(unloads == releases)
        #expect(loads - unloads == (manager.modules.first?.state == .loaded ? 1 : 0), "\(loads) loads, \(unloads) unloads")
    }
}
