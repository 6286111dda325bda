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
