import Foundation
import ModuleHost
import TestSupport

// Modules of the release races (ReleaseRaceTests): each lets the test hold a load or a service resolve part-way,
// or records when its instance was unloaded.

extension ModuleIdentifier {
    static let relBlocking: ModuleIdentifier = "test.release.blocking"
    static let relProvider: ModuleIdentifier = "test.release.provider"
    static let relGated: ModuleIdentifier = "test.release.gated"
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
