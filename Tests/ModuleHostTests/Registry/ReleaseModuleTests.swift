import Foundation
import Testing
@testable import ModuleHost
import TestSupport
import ModuleHostTesting

@Suite("Releasing a module", .timeLimit(.minutes(5)))
struct ReleaseModuleTests {
    /// A manager with the recorder injected and `types` (test module class names) registered from a manifest.
    private func manager(_ types: String..., recorder: LoadRecorder = LoadRecorder()) throws -> ModuleManager {
        let manager = ModuleManager.forTesting(recorder: recorder)
        let list = types.map { "\"ModuleHostTests.\($0)\"" }.joined(separator: ", ")
        try manager.registerModules(from: Data("{\"modules\": [\(list)]}".utf8))
        return manager
    }

    private func states(_ manager: ModuleManager) -> [ModuleIdentifier: ModuleDescription.State] {
        Dictionary(uniqueKeysWithValues: manager.modules.map { ($0.identifier, $0.state) })
    }

    @Test func releasingABaseReleasesItsLoadedDependentsFirstInReverseLoadOrder() throws {
        let recorder = LoadRecorder()
        let manager = try manager("RelBaseModule", "RelMiddleModule", "RelTopModule", "RelSideModule", "RelOtherModule",
                                  recorder: recorder)
        // Load order base, side, middle, top, other: its reverse differs from the reverse registration order.
        let side = try manager.bridge.resolve(.relSide)
        let top = try manager.bridge.resolve(.relTop)
        let other = try manager.bridge.resolve(.relOther)
        let base = try manager.bridge.resolve(.relBase)
        let middle = try manager.bridge.resolve(.relMiddle)
        #expect(recorder.events == ["load base", "load side", "load middle", "load top", "load other"])

        let released = try manager.releaseModule(.relBase)
        #expect(released == [.relTop, .relMiddle, .relSide, .relBase])
        #expect(Array(recorder.events.dropFirst(5)) == ["unload top", "unload middle", "unload side", "unload base"])
        #expect(states(manager) == [.relBase: .registered, .relMiddle: .registered, .relTop: .registered,
                                    .relSide: .registered, .relOther: .loaded])
        for module in [side, top, base, middle] {
            #expect((module as? any UnloadTracking)?.isUnloaded == true, "\(type(of: module))")
        }
        // The module that does not depend on base keeps its instance.
        #expect(try manager.bridge.resolve(.relOther) === other)
        #expect((other as? any UnloadTracking)?.isUnloaded == false)
        #expect(manager.loadedModules().map { ObjectIdentifier($0) } == [ObjectIdentifier(other)])

        // Next resolves create fresh instances, loading requirements first again.
        let newTop = try manager.bridge.resolve(.relTop)
        #expect(newTop !== top)
        #expect(try manager.bridge.resolve(.relBase) !== base)
        #expect(try manager.bridge.resolve(.relMiddle) !== middle)
        #expect(Array(recorder.events.dropFirst(9)) == ["load base", "load middle", "load top"])
        #expect(states(manager)[.relSide] == .registered)
    }

    @Test func aCachedServiceResolvesToTheFreshInstanceAfterRelease() throws {
        let recorder = LoadRecorder()
        let manager = try manager("RelBaseModule", "RelMiddleModule", recorder: recorder)
        let oldService = try manager.bridge.resolve(ReleaseTrackedService.self)
        #expect(try manager.bridge.resolve(ReleaseTrackedService.self) === oldService)  // warm: from the cache
        #expect(try manager.bridge.resolve(.relBase) === oldService)

        #expect(try manager.releaseModule(.relBase) == [.relBase])  // middle was never loaded
        #expect(oldService.isUnloaded)
        let newService = try manager.bridge.resolve(ReleaseTrackedService.self)
        #expect(newService !== oldService)
        #expect(!newService.isUnloaded)
        #expect(try manager.bridge.resolve(.relBase) === newService)
        #expect(try manager.bridge.resolve(ReleaseTrackedService.self) === newService)
        #expect(recorder.events == ["load base", "unload base", "load base"])
        #expect(states(manager)[.relMiddle] == .registered)
    }

    @Test func releasingAMiddleModuleKeepsWhatItRequires() throws {
        let recorder = LoadRecorder()
        let manager = try manager("RelBaseModule", "RelMiddleModule", "RelTopModule", recorder: recorder)
        let top = try manager.bridge.resolve(.relTop)
        let base = try manager.bridge.resolve(.relBase)
        #expect(try manager.releaseModule(.relMiddle) == [.relTop, .relMiddle])
        #expect(try manager.bridge.resolve(.relBase) === base)
        #expect(try manager.bridge.resolve(.relTop) !== top)
        #expect(recorder.events == ["load base", "load middle", "load top", "unload top", "unload middle", "load middle", "load top"])
    }

    @Test func releasingAModuleThatIsNotLoadedReleasesNothing() throws {
        let recorder = LoadRecorder()
        let manager = try manager("RelBaseModule", "RelMiddleModule", "RelOtherModule", recorder: recorder)
        let other = try manager.bridge.resolve(.relOther)
        #expect(try manager.releaseModule(.relBase) == [])
        #expect(try manager.bridge.resolve(.relOther) === other)
        #expect(recorder.events == ["load other"])
    }

    @Test func aFailedModuleLoadsAfterRelease() throws {
        let recorder = LoadRecorder()
        let manager = try manager("RelFlakyModule", "RelFlakyDependentModule", recorder: recorder)
        let attempts = LoadAttempts()
        manager.provide(attempts, as: LoadAttempts.self)

        let first = try #require(throws: ResolutionError.self) { try manager.bridge.resolve(.relFlakyDependent) }
        #expect(first.code == .loadFailed)
        // Failure is sticky until released: no second attempt.
        #expect(throws: ResolutionError.self) { try manager.bridge.resolve(.relFlaky) }
        #expect(attempts.value == 1)
        #expect(states(manager) == [.relFlaky: .failed, .relFlakyDependent: .failed])

        // Neither was loaded, so nothing is unloaded, but both get another try.
        #expect(try manager.releaseModule(.relFlaky) == [])
        #expect(states(manager) == [.relFlaky: .registered, .relFlakyDependent: .registered])
        _ = try manager.bridge.resolve(.relFlakyDependent)
        #expect(attempts.value == 2)
        #expect(recorder.events == ["flaky attempt 1", "flaky attempt 2", "load flaky dependent"])
        #expect(states(manager) == [.relFlaky: .loaded, .relFlakyDependent: .loaded])
    }

    @Test func anUnknownIdentifierIsAnError() throws {
        let manager = try manager("RelBaseModule")
        let error = try #require(throws: ResolutionError.self) { try manager.releaseModule("test.release.nope") }
        #expect(error.code == .unknownModule)
        #expect(error.message.contains("\"test.release.nope\""))
    }

    @Test func releasingItselfFromItsOwnLoadIsAnErrorNotADeadlock() throws {
        let recorder = LoadRecorder()
        let manager = try manager("RelSelfReleasingModule", recorder: recorder)
        let outcome = Locked<Result<ObjectIdentifier, ResolutionError>?>(nil)
        let done = onNewThread {
            let result = Result { () throws(ResolutionError) in ObjectIdentifier(try manager.bridge.resolve(.relSelfReleasing)) }
            outcome.withLock { $0 = result }
        }
        try #require(done.wait(seconds: 10), "releasing a module from its own moduleDidLoad deadlocked")
        #expect(recorder.events == ["release failed: \(ResolutionError.Code.releasedWhileLoading.rawValue)"])
        // The module caught the error, so it still loaded.
        let loaded = try #require(try outcome.withLock { $0 }?.get())
        #expect(ObjectIdentifier(try manager.bridge.resolve(.relSelfReleasing)) == loaded)
        #expect(states(manager)[.relSelfReleasing] == .loaded)
    }

    @Test func releasingARequirementFromALoadIsAnErrorNotADeadlock() throws {
        let recorder = LoadRecorder()
        let manager = try manager("RelBaseModule", "RelRequirementReleasingModule", recorder: recorder)
        let done = onNewThread {
            _ = try? manager.bridge.resolve(.relRequirementReleasing)
        }
        try #require(done.wait(seconds: 10), "releasing a required module from moduleDidLoad deadlocked")
        #expect(recorder.events == ["load base", "release failed: \(ResolutionError.Code.releasedWhileLoading.rawValue)"])
        #expect(states(manager) == [.relBase: .loaded, .relRequirementReleasing: .loaded])
        // Once loaded, the same release works from outside.
        #expect(try manager.releaseModule(.relBase) == [.relRequirementReleasing, .relBase])
    }

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
