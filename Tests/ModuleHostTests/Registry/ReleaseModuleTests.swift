import Foundation
import Testing
@testable import ModuleHost
import TestSupport
import ModuleHostTesting

@Suite("Releasing a module", .timeLimit(.minutes(5)))
struct ReleaseModuleTests: RegistrySuite {
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
}
