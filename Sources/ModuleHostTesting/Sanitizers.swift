#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the test process runs under.
package enum Sanitizers {
    /// Whether this process runs under Thread Sanitizer (`swift test --sanitize=thread`).
    ///
    /// Tests that are CPU-bound and prove no concurrency property (large inputs, builds, timing ratios) skip
    /// themselves there: the sanitizer slows them many times over, and while they hold the cooperative threads the
    /// tests that are about concurrency starve. They run in the plain suite.
    package static let threadSanitizerIsActive: Bool = {
        #if canImport(Darwin)
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)
        #else
        let everywhere: UnsafeMutableRawPointer? = nil
        #endif
        return dlsym(everywhere, "__tsan_init") != nil
    }()
}
