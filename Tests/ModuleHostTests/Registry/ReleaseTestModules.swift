import Foundation
import ModuleHost
import TestSupport

extension ModuleIdentifier {
    static let relBase: ModuleIdentifier = "test.release.base"
    static let relMiddle: ModuleIdentifier = "test.release.middle"
    static let relTop: ModuleIdentifier = "test.release.top"
    static let relSide: ModuleIdentifier = "test.release.side"
    static let relOther: ModuleIdentifier = "test.release.other"
    static let relFlaky: ModuleIdentifier = "test.release.flaky"
    static let relFlakyDependent: ModuleIdentifier = "test.release.flaky-dependent"
    static let relSelfReleasing: ModuleIdentifier = "test.release.self-releasing"
    static let relRequirementReleasing: ModuleIdentifier = "test.release.requirement-releasing"
    static let relBlocking: ModuleIdentifier = "test.release.blocking"
    static let relProvider: ModuleIdentifier = "test.release.provider"
}

/// A module instance that knows whether `moduleWillUnload` has run on it.
protocol UnloadTracking: AnyObject, Sendable {
    var isUnloaded: Bool { get }
}

/// The service base provides: its own instance.
protocol ReleaseTrackedService: UnloadTracking {}

/// Remembers the manager's recorder at load time, records load and unload, and whether it was unloaded.
final class ReleaseTracker: Sendable {
    private let recorder = LoadRecorder.Holder()
    private let unloaded = Locked(false)

    var isUnloaded: Bool { unloaded.withLock { $0 } }

    func loaded(_ name: String, by manager: any ModuleContext) {
        recorder.set(manager.recorder)
        manager.recorder?.record("load \(name)")
    }

    func unloading(_ name: String) {
        unloaded.withLock { $0 = true }
        recorder.get()?.record("unload \(name)")
    }
}

/// The bottom of the chain top -> middle -> base; side requires base too; other requires nothing.
final class RelBaseModule: ModuleProtocol, ReleaseTrackedService {
    static let moduleIdentifier: ModuleIdentifier = .relBase
    static let providedServices: [ProvidedService] = [.service(ReleaseTrackedService.self, from: RelBaseModule.self) { $0 }]
    private let tracker = ReleaseTracker()
    var isUnloaded: Bool { tracker.isUnloaded }
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { tracker.loaded("base", by: manager) }
    func moduleWillUnload() { tracker.unloading("base") }
}

final class RelMiddleModule: ModuleProtocol, UnloadTracking {
    static let moduleIdentifier: ModuleIdentifier = .relMiddle
    static let requiredModules: [ModuleIdentifier] = [.relBase]
    private let tracker = ReleaseTracker()
    var isUnloaded: Bool { tracker.isUnloaded }
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { tracker.loaded("middle", by: manager) }
    func moduleWillUnload() { tracker.unloading("middle") }
}

final class RelTopModule: ModuleProtocol, UnloadTracking {
    static let moduleIdentifier: ModuleIdentifier = .relTop
    static let requiredModules: [ModuleIdentifier] = [.relMiddle]
    private let tracker = ReleaseTracker()
    var isUnloaded: Bool { tracker.isUnloaded }
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { tracker.loaded("top", by: manager) }
    func moduleWillUnload() { tracker.unloading("top") }
}

final class RelSideModule: ModuleProtocol, UnloadTracking {
    static let moduleIdentifier: ModuleIdentifier = .relSide
    static let requiredModules: [ModuleIdentifier] = [.relBase]
    private let tracker = ReleaseTracker()
    var isUnloaded: Bool { tracker.isUnloaded }
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { tracker.loaded("side", by: manager) }
    func moduleWillUnload() { tracker.unloading("side") }
}

final class RelOtherModule: ModuleProtocol, UnloadTracking {
    static let moduleIdentifier: ModuleIdentifier = .relOther
    private let tracker = ReleaseTracker()
    var isUnloaded: Bool { tracker.isUnloaded }
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { tracker.loaded("other", by: manager) }
    func moduleWillUnload() { tracker.unloading("other") }
}

/// Counts load attempts of one manager's modules; injected per test.
final class LoadAttempts: Sendable {
    private let count = Locked(0)
    /// The number of this attempt, starting at 1.
    func next() -> Int { count.withLock { $0 += 1; return $0 } }
    var value: Int { count.withLock { $0 } }
}

/// Fails its first moduleDidLoad (per manager, through the injected ``LoadAttempts``), then loads.
final class RelFlakyModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = .relFlaky
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        let attempt = try manager.bridge.resolve(LoadAttempts.self).next()
        manager.recorder?.record("flaky attempt \(attempt)")
        if attempt == 1 { throw DeliberateFailure() }
    }
}

final class RelFlakyDependentModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = .relFlakyDependent
    static let requiredModules: [ModuleIdentifier] = [.relFlaky]
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { manager.recorder?.record("load flaky dependent") }
}

/// Tries to release itself from its own moduleDidLoad and records the outcome, then loads.
final class RelSelfReleasingModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = .relSelfReleasing
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        do {
            let released = try manager.releaseModule(Self.moduleIdentifier)
            manager.recorder?.record("released \(released)")
        } catch {
            manager.recorder?.record("release failed: \(error.code.rawValue)")
        }
    }
}

/// Requires base and tries to release it from its own moduleDidLoad (which would release this module too).
final class RelRequirementReleasingModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = .relRequirementReleasing
    static let requiredModules: [ModuleIdentifier] = [.relBase]
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        do {
            let released = try manager.releaseModule(.relBase)
            manager.recorder?.record("released \(released)")
        } catch {
            manager.recorder?.record("release failed: \(error.code.rawValue)")
        }
    }
}

/// Signals for a load the test holds open.
final class ReleaseLatch: Sendable {
    let entered = Signal()
    let proceed = Signal()
}

/// Requires base; its moduleDidLoad tells the test it started, then waits until the test lets it finish.
final class RelBlockingModule: ModuleProtocol, UnloadTracking {
    static let moduleIdentifier: ModuleIdentifier = .relBlocking
    static let requiredModules: [ModuleIdentifier] = [.relBase]
    private let tracker = ReleaseTracker()
    var isUnloaded: Bool { tracker.isUnloaded }
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        let latch = try manager.bridge.resolve(ReleaseLatch.self)
        latch.entered.fire()
        guard latch.proceed.wait() else { throw DeliberateFailure() }
        tracker.loaded("blocking", by: manager)
    }
    func moduleWillUnload() { tracker.unloading("blocking") }
}

/// A shared, ordered clock for one test: each tick is later than every tick before it.
final class TickCounter: Sendable {
    private let count = Locked(0)
    func tick() -> Int { count.withLock { $0 += 1; return $0 } }
}

protocol ReleasableProviderService: AnyObject, Sendable {
    /// The tick at which this instance's moduleWillUnload began, or nil while it has not.
    var unloadTick: Int? { get }
}

/// Provides ``ReleasableProviderService``; records the tick of its unload on the injected ``TickCounter``.
final class RelProviderModule: ModuleProtocol, ReleasableProviderService {
    static let moduleIdentifier: ModuleIdentifier = .relProvider
    static let providedServices: [ProvidedService] = [.service(ReleasableProviderService.self, from: RelProviderModule.self) { $0 }]
    private struct State: Sendable {
        var ticks: TickCounter?
        var recorder: LoadRecorder?
        var unloadTick: Int?
    }
    private let state = Locked(State())
    var unloadTick: Int? { state.withLock { $0.unloadTick } }
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        let ticks = try manager.bridge.resolve(TickCounter.self)
        let recorder = manager.recorder
        state.withLock {
            $0.ticks = ticks
            $0.recorder = recorder
        }
        recorder?.record("load provider")
    }
    func moduleWillUnload() {
        let recorder = state.withLock { state in
            state.unloadTick = state.ticks?.tick()
            return state.recorder
        }
        recorder?.record("unload provider")
    }
}

extension ModuleIdentifier {
    static let relGated: ModuleIdentifier = "test.release.gated"
}

/// Holds the first pass through a gate until the test lets it go; later passes go straight through.
final class GateLatch: Sendable {
    let entered = Signal()
    let proceed = Signal()
    private let passes = Locked(0)

    func pass() {
        guard passes.withLock({ $0 += 1; return $0 }) == 1 else { return }
        entered.fire()
        _ = proceed.wait()
    }
}

protocol GatedService: UnloadTracking {}

/// Hands out its service through an accessor that passes the injected ``GateLatch``, so a test can hold a
/// service resolve between loading the provider and caching the service.
final class RelGatedProviderModule: ModuleProtocol, GatedService {
    static let moduleIdentifier: ModuleIdentifier = .relGated
    static let providedServices: [ProvidedService] = [
        .service(GatedService.self, from: RelGatedProviderModule.self) { $0.passingGate() },
    ]
    private let gate = Locked<GateLatch?>(nil)
    private let tracker = ReleaseTracker()
    var isUnloaded: Bool { tracker.isUnloaded }
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        let latch = try manager.bridge.resolve(GateLatch.self)
        gate.withLock { $0 = latch }
        tracker.loaded("gated", by: manager)
    }
    func moduleWillUnload() { tracker.unloading("gated") }

    private func passingGate() -> any GatedService {
        gate.withLock { $0 }?.pass()
        return self
    }
}
