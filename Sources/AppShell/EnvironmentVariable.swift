#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One environment variable, read with `getenv`: the shell reads only a few, and building the whole environment
/// as a dictionary (`ProcessInfo.environment`) costs a measurable part of a one-shot command's start.
enum EnvironmentVariable {
    static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
