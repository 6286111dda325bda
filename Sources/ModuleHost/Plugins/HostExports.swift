#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether this host exports the ModuleHost symbols a plugin needs, decided from the plugin's undefined symbols
/// and a predicate that says whether the host exports a name (`dlsym` on the host's own image: no plugin code runs).
enum HostExports {
    /// The libraries whose symbols a plugin takes from the host: ModuleHost, and the libraries built on it whose
    /// types a plugin may use too (ModuleHostState's `HostEnvironment`, ModuleHostRouting's `ModuleRouteHandler`).
    static let hostLibraries = ["ModuleHost", "ModuleHostState", "ModuleHostRouting"]

    /// The host library `symbol` belongs to (its mangled module prefix, `$s<length><name>`), or `nil`.
    static func library(of symbol: String) -> String? {
        hostLibraries.first { symbol.hasPrefix("$s\($0.utf8.count)\($0)") }
    }

    /// A symbol every host that exports ModuleHost's symbols has: the nominal type descriptor of `ModuleManager`.
    static let probe = "$s10ModuleHost0A7ManagerCMn"

    enum Verdict: Equatable {
        /// Every ModuleHost symbol the plugin needs is exported.
        case complete
        /// The host exports no ModuleHost symbol at all: the host was linked without exporting them.
        case hostExportsNothing
        /// The host exports ModuleHost, but not these symbols: the plugin was built against another ModuleHost.
        case missing([String])
    }

    /// The verdict for a plugin that needs `undefined`, given `isExported`.
    static func verdict(undefined: [String], isExported: (String) -> Bool) -> Verdict {
        let needed = undefined.filter { library(of: $0) != nil }
        guard !needed.isEmpty else { return .complete }
        guard isExported(probe) else { return .hostExportsNothing }
        let missing = needed.filter { !isExported($0) }
        return missing.isEmpty ? .complete : .missing(missing)
    }

    /// Whether the running program exports `symbol` (searches the loaded images, the host's own first).
    static func isExportedByHost(_ symbol: String) -> Bool {
        #if canImport(Darwin)
        // Mach-O symbol names carry a leading underscore that dlsym adds itself.
        return dlsym(UnsafeMutableRawPointer(bitPattern: -2), symbol) != nil
        #else
        return dlsym(nil, symbol) != nil
        #endif
    }

    /// The linker flag a host needs so plugins can use its ModuleHost symbols.
    static var linkerFlag: String {
        #if canImport(Darwin)
        "-Xlinker -export_dynamic"
        #else
        "-Xlinker --export-dynamic"
        #endif
    }
}
