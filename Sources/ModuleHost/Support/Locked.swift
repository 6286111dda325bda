#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a `pthread` mutex, for state shared between threads across the package's targets.
///
/// `Synchronization.Mutex` would do, but on Linux its lock lives in an uninstrumented library, so Thread
/// Sanitizer cannot see it and reports every guarded access as a race. A `pthread_mutex_t` is intercepted
/// by the sanitizer, so `swift test --sanitize=thread` reports only real races. Never call out to code that
/// may take the same lock from inside `withLock`.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// Guards `value`.
    package init(_ value: Value) {
        self.value = value
        mutex = allocateMutex()
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

/// A new initialized mutex, for a lock whose sections are all short. On Glibc it is adaptive: a thread that finds it
/// taken spins briefly before it sleeps, and the holder is usually done by then (sleeping cost a context switch and
/// a wake-up each time: the workers of a phase of many short operations met at a lock on almost every operation).
/// Elsewhere, the system's default mutex. Destroy and deallocate it when done.
func allocateMutex() -> UnsafeMutablePointer<pthread_mutex_t> {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    #if canImport(Glibc)
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
    #else
    pthread_mutex_init(mutex, nil)
    #endif
    return mutex
}
