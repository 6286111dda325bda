#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How long this process has been running, read from the system, so `uptime` is the app's uptime whenever the
/// ClockModule happens to load.
enum ProcessAge {
    /// The process's age, or `nil` when the system does not say (then the module's own age stands in).
    static func current() -> Duration? {
        #if os(Linux)
        guard let stat = contents(of: "/proc/self/stat"), let uptime = contents(of: "/proc/uptime") else { return nil }
        return age(stat: stat, systemUptime: uptime, ticksPerSecond: Int(sysconf(Int32(_SC_CLK_TCK))))
        #else
        return nil
        #endif
    }

    /// The age from `/proc/self/stat` (field 22, the start time in clock ticks after boot) and `/proc/uptime`
    /// (seconds since boot). The command name (field 2) is in parentheses and may hold spaces and parentheses,
    /// so fields are counted after its last `)`.
    static func age(stat: String, systemUptime: String, ticksPerSecond: Int) -> Duration? {
        guard ticksPerSecond > 0, let close = stat.lastIndex(of: ")") else { return nil }
        // After ") " come field 3 (state) onwards: field 22 is the 20th of them.
        let fields = stat[stat.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 20, let ticks = Int64(fields[19]),
              let bootSeconds = systemUptime.split(separator: " ").first.flatMap({ Double($0) }) else { return nil }
        let startedAfterBoot = Double(ticks) / Double(ticksPerSecond)
        let age = bootSeconds - startedAfterBoot
        return age >= 0 ? .milliseconds(Int64((age * 1000).rounded())) : nil
    }

    private static func contents(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
