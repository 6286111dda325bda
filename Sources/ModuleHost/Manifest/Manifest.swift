#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The decoded content of a `modules.json`: which modules an app is made of, and how to start them.
///
/// Two forms are read. The rich form:
/// ```json
/// {"version": 1, "modules": [{"type": "AuthModule.AuthModule", "enabled": true, "eager": false, "config": {}}]}
/// ```
/// and the plain form of SwiftyArchitecture: `{"modules": ["AuthModule.AuthModule"]}`.
struct Manifest: Sendable {
    /// The manifest format versions this library reads.
    static let supportedVersions: ClosedRange<Int> = 1...1

    /// The format version (1 when the file does not say).
    var version: Int
    /// The module entries, in file order; this order breaks ties when modules start.
    var modules: [Entry]
    /// The file the manifest came from, as given, for diagnostics; `nil` for in-memory data.
    var file: String?
    /// The `routing` object's settings, when the manifest has one.
    var routing: RoutingSettings?

    /// Creates a manifest from entries.
    init(version: Int = 1, modules: [Entry], file: String? = nil, routing: RoutingSettings? = nil) {
        self.version = version
        self.modules = modules
        self.file = file
        self.routing = routing
    }

    /// Reads and checks the structure of manifest data, throwing every problem found.
    static func decode(_ data: Data, file: String? = nil) throws(ManifestError) -> Manifest {
        let result = ManifestReader.read(data, file: file)
        return try result.manifestOrThrow(file: file)
    }
}

extension Manifest {
    /// The folder against which plugin library paths are resolved: the manifest's own, or the working directory.
    var directory: URL {
        if let file {
            return URL(fileURLWithPath: file).deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }
}

extension Manifest {
    /// One module listed in a manifest.
    struct Entry: Sendable {
        /// The module's type name, qualified with its Swift module: `"AuthModule.AuthModule"`.
        var typeName: String
        /// Whether the module is registered at all (default true).
        var enabled: Bool
        /// Whether the module is instantiated when startup begins instead of on first resolve (default false).
        var eager: Bool
        /// The module's `config` object, decoded later into the module's own configuration type.
        var config: ModuleConfiguration?
        /// Overrides for the module's startup operations.
        var startup: StartupOverrides
        /// A plugin library to load before looking the type up, relative to the manifest's folder.
        var library: String?
        /// The library's expected SHA-256, as 64 hexadecimal digits; a mismatch refuses the load.
        var sha256: String?
        /// Whether a failure to load this module's library is only a warning (the module is left out).
        var optional: Bool
        /// Changes to the module's routes, keyed by route identifier.
        var routes: [String: RouteOverride]
        /// Where the entry stands in its file, such as `modules[2]`.
        var path: String
        /// The entry's line and column, where known.
        var location: ManifestDiagnostic.Location?

        /// Creates an entry, at `path` in its manifest (or a description of where code registered it).
        init(
            typeName: String, enabled: Bool = true, eager: Bool = false, config: ModuleConfiguration? = nil,
            startup: StartupOverrides = StartupOverrides(), library: String? = nil, sha256: String? = nil,
            optional: Bool = false, routes: [String: RouteOverride] = [:], path: String,
            location: ManifestDiagnostic.Location? = nil
        ) {
            self.typeName = typeName
            self.enabled = enabled
            self.eager = eager
            self.config = config
            self.startup = startup
            self.library = library
            self.sha256 = sha256
            self.optional = optional
            self.routes = routes
            self.path = path
            self.location = location
        }
    }
}
