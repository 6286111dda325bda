#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The calling thread, to tell a re-entrant resolve (same thread) from a concurrent one (another thread).
///
/// Resolution is synchronous, so a load runs start to finish on one thread; comparing threads is exact.
struct ThreadIdentity: Hashable, Sendable {
    private let raw: UInt

    /// The calling thread.
    static var current: ThreadIdentity {
        #if canImport(Darwin)
        ThreadIdentity(raw: UInt(bitPattern: pthread_self()))
        #else
        ThreadIdentity(raw: UInt(pthread_self()))
        #endif
    }
}
