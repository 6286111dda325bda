import Foundation

/// Runs `body` on a new thread (not a task: it may block on a ``Signal`` without starving the cooperative
/// pool); the returned signal fires when `body` returns, so a deadlock shows as a timed-out wait.
@discardableResult
func onNewThread(_ body: @escaping @Sendable () -> Void) -> Signal {
    let done = Signal()
    Thread.detachNewThread {
        body()
        done.fire()
    }
    return done
}

/// Runs `body(index)` on `count` new threads at once; true when every one returned within `seconds`.
func onThreads(_ count: Int, seconds: Double = 30, _ body: @escaping @Sendable (_ index: Int) -> Void) -> Bool {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            body(index)
            group.leave()
        }
    }
    return group.wait(timeout: .now() + seconds) == .success
}
