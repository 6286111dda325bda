#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A `pthread` mutex with a condition variable: lock, wait for a change, broadcast one. The registry's one lock
/// (FoundationEssentials has no `NSCondition`); like ``Locked`` it is seen by Thread Sanitizer.
package final class Condition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// An unlocked condition.
    package init() {
        mutex = allocateMutex()
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Takes the lock, waiting for it.
    package func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock.
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Releases the lock until another thread broadcasts, then takes it again. Call it with the lock held, in a
    /// loop that checks what it waits for (wake-ups may be spurious).
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every waiting thread. Call it with the lock held.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
