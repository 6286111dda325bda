#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension PluginLoader {
    #if !os(Windows)
    /// Loads the library through the descriptor that was checked (on Linux), so the file cannot be replaced in
    /// between. Format, architecture and ModuleHost symbols were checked by reading the file; a refusal now is
    /// unexpected, and the loader's own message is its detail.
    static func dynamicallyLoad(_ descriptor: Int32, path: String, library: String) throws(PluginError) {
        #if os(Linux)
        let handle = dlopen("/proc/self/fd/\(descriptor)", RTLD_NOW | RTLD_LOCAL)
        #else
        let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)
        #endif
        guard handle != nil else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
            throw loadFailure(reason, library: library, path: path)
        }
    }
    #endif

    /// The refusal for a library the dynamic loader refused after every check passed, with the loader's message
    /// (its `/proc/self/fd/N` name replaced by the library's path) as the detail.
    static func loadFailure(_ reason: String, library: String, path: String) -> PluginError {
        var detail = reason
        if let prefix = detail.firstRange(of: "/proc/self/fd/") {
            let end = detail[prefix.upperBound...].firstIndex { !$0.isASCII || !$0.isNumber } ?? detail.endIndex
            if end > prefix.upperBound { detail.replaceSubrange(prefix.lowerBound..<end, with: path) }
        }
        return PluginError(.loadFailed, library: library, message: "the dynamic loader refused \(path): \(detail)")
    }
}
