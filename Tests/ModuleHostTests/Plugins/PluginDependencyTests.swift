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

    /// Linked with the plugin's folder as its search path (by `$ORIGIN`, by its absolute path, and by `$ORIGIN/..`
    /// leading out of the loader's `/proc/self/fd`), by the dependency's own path, or as a filter (`--auxiliary`):
    /// each is refused by validation and by registration, and no constructor runs.
    @Test(arguments: ["origin", "absolute", "escape", "path", "auxiliary"])
    func aLibraryFromOutsideTheHostsFoldersIsRefusedBeforeAnythingLoads(linkedBy: String) throws {
        let setup = try PluginValidationTests.Setup()
        let (library, trace) = try dependency(in: setup)
        let folder = library.deletingLastPathComponent().path
        let arguments = switch linkedBy {
        case "origin": ["-L\(folder)", "-ldep", "-Wl,-rpath,$ORIGIN"]
        case "absolute": ["-L\(folder)", "-ldep", "-Wl,-rpath,\(folder)"]
        case "escape": ["-L\(folder)", "-ldep", "-Wl,-rpath,$ORIGIN/../root\(folder)"]
        case "auxiliary": ["-Wl,--auxiliary=libdep.so", "-Wl,-rpath,\(folder)"]
        default: [library.path]
        }
        let call = linkedBy == "auxiliary" ? "" : "extern int dep_value(void);\nint use_dep(void) { return dep_value(); }\n"
        try setup.plugin(extra: call, arguments: arguments)
        let manifest = try setup.manifest(PluginValidationTests.entry())
        let found = errors(manifest)
        let why = switch linkedBy {
        case "path": "named by a path"
        case "origin": "which is in none of the host's library folders"
        default: "first, not a folder of the host's libraries"
        }
        #expect(found.count == 1 && found.first?.contains("needs the library \(linkedBy == "path" ? library.path : "libdep.so")") == true, "\(found)")
        #expect(found.first?.contains(why) == true, "\(found)")
        #expect { try ModuleManager().registerModules(withConfigFilePath: manifest) } throws: { error in
            (error as? ManifestError)?.diagnostics.contains { $0.code == .pluginRejected && $0.message.contains("libdep.so") } == true
        }
        #expect(!FileManager.default.fileExists(atPath: trace.path), "the dependency's code ran")
        #expect(!FileManager.default.fileExists(atPath: setup.trace.path), "the plugin's code ran")
    }

    /// The dynamic table is read where the loader reads it: at its address, up to its `DT_NULL`. A table whose
    /// segment's file offset points elsewhere (here, at the file's header) is still read at its address, and one
    /// whose segment's file size leaves out its `DT_NULL` is refused. Both passed before, and the loader then ran
    /// the dependency's code.
    @Test(arguments: ["offset", "size"])
    func theDynamicTableIsReadWhereTheLoaderReadsIt(patched field: String) throws {
        let setup = try PluginValidationTests.Setup()
        let (library, trace) = try dependency(in: setup)
        let folder = library.deletingLastPathComponent().path
        let plugin = try setup.plugin(extra: "extern int dep_value(void);\nint use_dep(void) { return dep_value(); }\n",
                                      arguments: ["-L\(folder)", "-ldep", "-Wl,-rpath,\(folder)"])
        var bytes = [UInt8](try Data(contentsOf: plugin))
        func integer(_ at: Int, _ size: Int) -> Int { (0..<size).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        let table = integer(32, 8), count = integer(56, 2)
        let dynamic = try #require((0..<count).map { table + $0 * 56 }.first { integer($0, 4) == 2 }, "no PT_DYNAMIC")
        // p_offset (+8) to 0, the file's header; or p_filesz (+32) to 0, leaving DT_NULL out.
        let at = dynamic + (field == "offset" ? 8 : 32)
        for index in 0..<8 { bytes[at + index] = 0 }
        try Data(bytes).write(to: plugin)
        let found = errors(try setup.manifest(PluginValidationTests.entry()))
        let expected = field == "offset" ? "first, not a folder of the host's libraries" : "its dynamic segment does not end with DT_NULL"
        #expect(found.count == 1 && found.first?.contains(expected) == true, "\(found)")
        #expect(!FileManager.default.fileExists(atPath: trace.path))
    }

    /// The libraries the host has loaded pass, wherever the plugin says to look: libm and libc are the host's own.
    @Test func librariesTheHostHasLoadedPass() throws {
        let setup = try PluginValidationTests.Setup()
        try setup.plugin(extra: "#include <math.h>\ndouble use_m(double x) { return cos(x); }\n", arguments: ["-lm", "-Wl,-rpath,$ORIGIN"])
        #expect(errors(try setup.manifest(PluginValidationTests.entry())).isEmpty)
    }

    /// In the loader's order (`DT_RPATH` only without `DT_RUNPATH`, then `LD_LIBRARY_PATH`, then `DT_RUNPATH`),
    /// every folder it would search for a library the host has not loaded must be one of the host's, whether the
    /// library is there now or not; an empty entry is the working directory; a token the host does not expand, and a
    /// name with a path or a token, are refused; and the library must be in one of the host's folders.
    @Test func everyFolderTheLoaderWouldSearchFirstMustBeTheHosts() throws {
        var policy = PluginDependencies()
        policy.isLoaded = { $0 == "libloaded.so" }
        policy.trustedFolders = { ["/trusted"] }
        policy.libraryPath = { [] }
        policy.fileExists = { $0 == "/trusted/liba.so" }
        policy.canonical = { ["/proc/self/fd": "/proc/123/fd", ".": "/cwd"][$0] ?? $0 }
        func refusal(_ needed: [String], rpath: [String] = [], runpath: [String] = []) -> String? {
            var dependencies = ELFImage.Dependencies()
            (dependencies.needed, dependencies.rpath, dependencies.runpath) = (needed, rpath, runpath)
            do {
                try policy.check(dependencies, path: "/plugin/p.so", library: "p.so")
                return nil
            } catch {
                return error.message
            }
        }
        #expect(refusal(["liba.so"], rpath: ["/trusted"]) == nil)
        #expect(refusal(["liba.so"], runpath: ["/plugin", "/trusted"])?.contains("look for in /plugin first") == true,
                "an untrusted folder is refused though the library is not in it")
        #expect(refusal(["liba.so"], rpath: ["/plugin"], runpath: ["/trusted"]) == nil, "with a DT_RUNPATH, DT_RPATH is not searched")
        #expect(refusal(["liba.so"], runpath: ["$ORIGIN"]) == nil, "the loader's $ORIGIN is a folder of descriptors")
        #expect(refusal(["liba.so"], runpath: ["$ORIGIN/../root/tmp"])?.contains("/proc/self/fd/../root/tmp first") == true)
        #expect(refusal(["liba.so"], runpath: ["$LIB/x"])?.contains("whose token the host does not expand") == true)
        #expect(refusal(["./liba.so"])?.contains("named by a path") == true)
        #expect(refusal(["$ORIGIN/liba.so"])?.contains("named by a path or with a token") == true)
        #expect(refusal(["libb.so"])?.contains("in none of the host's library folders") == true)
        #expect(refusal(["libloaded.so"], runpath: ["/plugin"]) == nil, "a library the host has loaded loads nothing")
        policy.libraryPath = { ["/trusted", ""] }
        #expect(refusal(["liba.so"])?.contains("look for in the working directory first") == true)
    }

    /// `LD_LIBRARY_PATH` is read as the loader reads it: split at `:` and `;`, an empty entry kept.
    @Test func theLibraryPathIsSplitAsTheLoaderSplitsIt() {
        let splitter = PluginDependencies.splitLibraryPath
        #expect(splitter("/a;/b") == ["/a", "/b"])
        #expect(splitter("/a:") == ["/a", ""])
        #expect(splitter("") == [""])
    }
}
#endif
