import Foundation
import ModuleHost
import TestSupport

extension ModuleIdentifier {
    static let tearBase: ModuleIdentifier = "test.teardown.base"
    static let tearTop: ModuleIdentifier = "test.teardown.top"
    static let tearHanging: ModuleIdentifier = "test.teardown.hanging"
    static let tearSyncOnly: ModuleIdentifier = "test.teardown.sync-only"
}

/// What a teardown test module needs from the test: where to record, and a gate its teardown waits on.
final class TeardownProbe: Sendable {
    let recorder = LoadRecorder()
    /// Receives, from the hanging module's teardown, whether its task was cancelled when it ended.
    let teardownEnded: AsyncStream<Bool>
    let teardownEndedContinuation: AsyncStream<Bool>.Continuation

    init() {
        (teardownEnded, teardownEndedContinuation) = AsyncStream<Bool>.makeStream()
    }
}

extension ModuleContext {
    var teardownProbe: TeardownProbe? { try? bridge.resolve(TeardownProbe.self) }
}

/// Holds the probe its module got at load time.
final class ProbeHolder: Sendable {
    private let probe = Locked<TeardownProbe?>(nil)
    func set(_ value: TeardownProbe?) { probe.withLock { $0 = value } }
    var value: TeardownProbe? { probe.withLock { $0 } }
}

/// Records its synchronous hook, then awaits a real suspension in its teardown before recording the end.
final class TearBaseModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = .tearBase
    private let holder = ProbeHolder()
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { holder.set(manager.teardownProbe) }
    func moduleWillUnload() { holder.value?.recorder.record("will unload base") }
    func moduleTearDown() async {
        holder.value?.recorder.record("teardown began base")
        try? await Task.sleep(for: .milliseconds(20))
        holder.value?.recorder.record("teardown finished base")
    }
}

/// Requires base, so it loads after base and is torn down before it.
final class TearTopModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = .tearTop
    static let requiredModules: [ModuleIdentifier] = [.tearBase]
    private let holder = ProbeHolder()
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { holder.set(manager.teardownProbe) }
    func moduleWillUnload() { holder.value?.recorder.record("will unload top") }
    func moduleTearDown() async {
        holder.value?.recorder.record("teardown began top")
        await Task.yield()
        holder.value?.recorder.record("teardown finished top")
    }
}

/// A teardown that never returns on its own: it waits until it is cancelled (and records that it was).
final class TearHangingModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = .tearHanging
    static let requiredModules: [ModuleIdentifier] = [.tearBase]
    private let holder = ProbeHolder()
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { holder.set(manager.teardownProbe) }
    func moduleTearDown() async {
        holder.value?.recorder.record("teardown began hanging")
        let stream = AsyncStream<Never> { _ in }
        for await _ in stream {}
        // Reached only when the task is cancelled: an AsyncStream iteration ends on cancellation.
        holder.value?.teardownEndedContinuation.yield(Task.isCancelled)
    }
}

/// A module written before asynchronous teardown existed: only the synchronous hook.
final class TearSyncOnlyModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = .tearSyncOnly
    private let holder = ProbeHolder()
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { holder.set(manager.teardownProbe) }
    func moduleWillUnload() { holder.value?.recorder.record("will unload sync-only") }
}
