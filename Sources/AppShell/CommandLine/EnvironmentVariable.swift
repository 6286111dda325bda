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

    /// Whether the variable is set to something other than the empty string; no `String` is made.
    static func isSetAndNotEmpty(_ name: String) -> Bool {
        getenv(name).map { $0.pointee != 0 } ?? false
    }

    /// Whether the variable is set to exactly `text`, compared byte for byte; no `String` is made.
    static func isSet(_ name: String, to text: String) -> Bool {
        getenv(name).map { strcmp($0, text) == 0 } ?? false
    }
}
