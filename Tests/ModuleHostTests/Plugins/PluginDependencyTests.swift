import Foundation
@testable import ModuleHost
import ModuleHostBinaryImage
import Testing
import TestSupport

#if os(Linux)
import Glibc

/// The libraries a plugin needs are checked before anything is loaded: loading one the host does not trust (from the
/// plugin's folder, a search path of its own, or a path written in it) would run code no check has read. Such a
/// plugin used to pass `validate` and then crash the command that loaded it.
@Suite("Plugin dependencies")
struct PluginDependencyTests {
    /// The plugins folder of `setup` with `libdep.so` in it, whose constructor would create `dep-ran`.
    private func dependency(in setup: PluginValidationTests.Setup) throws -> (library: URL, trace: URL) {
        let library = setup.url.appendingPathComponent("plugins/libdep.so")
        let trace = setup.url.appendingPathComponent("dep-ran")
        try CLibrary.compile(CLibrary.constructor(creating: trace) + "int dep_value(void) { return 7; }\n", to: library)
        return (library, trace)
    }

    private func errors(_ manifest: URL) -> [String] {
        ModuleManager().validateManifest(at: manifest).filter { $0.severity == .error }.map(\.message)
    }

    /// Linked with the plugin's folder as its search path, by `$ORIGIN` and by its absolute path, or by the
    /// dependency's own path: each is refused by validation and by registration, and no constructor runs.
    @Test(arguments: ["origin", "absolute", "path"])
    func aLibraryFromOutsideTheHostsFoldersIsRefusedBeforeAnythingLoads(linkedBy: String) throws {
        let setup = try PluginValidationTests.Setup()
        let (library, trace) = try dependency(in: setup)
        let folder = library.deletingLastPathComponent().path
        let arguments = switch linkedBy {
        case "origin": ["-L\(folder)", "-ldep", "-Wl,-rpath,$ORIGIN"]
        case "absolute": ["-L\(folder)", "-ldep", "-Wl,-rpath,\(folder)"]
        default: [library.path]
        }
        try setup.plugin(extra: "extern int dep_value(void);\nint use_dep(void) { return dep_value(); }\n", arguments: arguments)
        let manifest = try setup.manifest(PluginValidationTests.entry())
        let found = errors(manifest)
        #expect(found.count == 1 && found.first?.contains("needs the library \(linkedBy == "path" ? library.path : "libdep.so")") == true, "\(found)")
        #expect(found.first?.contains(linkedBy == "path" ? "named by its path" : "not a folder of the host's libraries") == true, "\(found)")
        #expect { try ModuleManager().registerModules(withConfigFilePath: manifest) } throws: { error in
            (error as? ManifestError)?.diagnostics.contains { $0.code == .pluginRejected && $0.message.contains("libdep.so") } == true
        }
        #expect(!FileManager.default.fileExists(atPath: trace.path), "the dependency's code ran")
        #expect(!FileManager.default.fileExists(atPath: setup.trace.path), "the plugin's code ran")
    }

    /// The libraries the host has loaded pass, wherever the plugin says to look: libm and libc are the host's own.
    @Test func librariesTheHostHasLoadedPass() throws {
        let setup = try PluginValidationTests.Setup()
        try setup.plugin(extra: "#include <math.h>\ndouble use_m(double x) { return cos(x); }\n", arguments: ["-lm", "-Wl,-rpath,$ORIGIN"])
        #expect(errors(try setup.manifest(PluginValidationTests.entry())).isEmpty)
    }

    /// The loader's order: `DT_RPATH` only without `DT_RUNPATH`, then `LD_LIBRARY_PATH`, then `DT_RUNPATH`; the first
    /// folder holding the library decides, and a token the host does not expand is refused.
    @Test func theFirstFolderTheLoaderWouldSearchDecides() throws {
        var policy = PluginDependencies()
        policy.isLoaded = { _ in false }
        policy.trustedFolders = { ["/trusted"] }
        policy.libraryPath = { ["/env"] }
        let holding: Set<String> = ["/trusted/liba.so", "/env/liba.so", "/plugin/liba.so"]
        policy.fileExists = { holding.contains($0) }
        policy.canonical = { $0 }
        func refusal(_ dependencies: ELFImage.Dependencies) -> String? {
            do {
                try policy.check(dependencies, folder: "/plugin", path: "/plugin/p.so", library: "p.so")
                return nil
            } catch {
                return error.message
            }
        }
        var dependencies = ELFImage.Dependencies()
        dependencies.needed = ["liba.so"]
        dependencies.rpath = ["/trusted"]
        #expect(refusal(dependencies) == nil, "DT_RPATH's folder is searched first")
        dependencies.runpath = ["$ORIGIN"]
        #expect(refusal(dependencies)?.contains("from /env") == true, "with a DT_RUNPATH, DT_RPATH is not searched; LD_LIBRARY_PATH is")
        policy.libraryPath = { [] }
        #expect(refusal(dependencies)?.contains("from /plugin") == true, "$ORIGIN is the plugin's folder")
        dependencies.runpath = ["/trusted", "$ORIGIN"]
        #expect(refusal(dependencies) == nil)
        dependencies.runpath = ["$LIB/x"]
        #expect(refusal(dependencies)?.contains("whose token the host does not expand") == true)
    }
}
#endif
