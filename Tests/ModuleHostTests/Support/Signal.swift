import Foundation
import ModuleHost
import TestSupport
import ModuleHostTesting

/// A one-shot signal threads can wait for with a timeout, so a broken test fails instead of hanging.
final class Signal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func fire() { semaphore.signal() }

    /// True if fired within `seconds`.
    func wait(seconds: Double = 10) -> Bool {
        let fired = semaphore.wait(timeout: .now() + seconds) == .success
        if fired { semaphore.signal() }  // stay fired for later waiters
        return fired
    }

    /// True if fired within `seconds`; the wait holds no thread of the cooperative pool.
    func waited(seconds: Double = 10) async -> Bool {
        await offThePool { self.wait(seconds: seconds) }
    }
}

/// Coordination objects for the cross-thread cycle test.
final class CrossThreadLatch: Sendable {
    let aStarted = Signal()
    let bStarted = Signal()
}

extension ModuleManager {
    /// A manager that resolves test module types by name through the Swift runtime, with a recorder injected.
    static func forTesting(recorder: LoadRecorder = LoadRecorder()) -> ModuleManager {
        let manager = ModuleManager()
        manager.provide(recorder, as: LoadRecorder.self)
        return manager
    }
}

extension ModuleContext {
    var recorder: LoadRecorder? { try? bridge.resolve(LoadRecorder.self) }
}
