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

/// Runs `wait`, which blocks, on a thread of its own and returns its result: the caller's thread, one of the
/// cooperative pool's few (two on a two-core machine), stays free for the tests running beside this one.
func offThePool<Result: Sendable>(_ wait: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: wait()) }
    }
}

/// Runs `body(index)` on `count` new threads at once; true when every one returned within `seconds`, and then
/// every thread has also ended (joined), so whatever a thread held until its end (its reader slot) is let go.
/// The wait holds no thread of the cooperative pool.
func onThreads(_ count: Int, seconds: Double = 30, _ body: @escaping @Sendable (_ index: Int) -> Void) async -> Bool {
    let group = DispatchGroup()
    let threads = JoinableThreads()
    for index in 0..<count {
        group.enter()
        threads.start {
            body(index)
            group.leave()
        }
    }
    return await offThePool {
        guard group.wait(timeout: .now() + seconds) == .success else { return false }
        threads.joinAll()
        return true
    }
}

/// Threads made with `pthread_create` and joined together: a join returns once the thread has ended, its
/// thread-local destructors run.
private final class JoinableThreads: @unchecked Sendable {
    // `@unchecked`: `started` is appended to by the creating thread before `joinAll` runs (after the group's wait).
    private var started: [pthread_t] = []

    func start(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<Box>.fromOpaque(argument).takeRetainedValue().body()
            return nil
        }, box)
        if created == 0 {
            started.append(thread)
        } else {
            Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body()
        }
    }

    func joinAll() {
        for thread in started { pthread_join(thread, nil) }
    }
}

/// Yields this thread until `done()` holds or `limit` has passed: a writer letting racing readers make progress
/// before it goes on, bounded in time (not in yields, which a busy machine makes short).
func yieldUntil(atMost limit: Duration = .milliseconds(50), _ done: () -> Bool) {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while !done(), clock.now < deadline { sched_yield() }
}
