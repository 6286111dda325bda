import Foundation
@testable import ModuleHost
import ModuleHostSystemLibraries
import Testing
import TestSupport

#if os(Linux)
import Glibc

/// Plugin checks through the library's own calls: validation reads plugin files and runs none of their code.
@Suite("Plugin validation")
struct PluginValidationTests {
    /// A manifest folder with `plugins/`, a C plugin `plugins/<name>` whose constructor would create `trace`.
    final class Setup {
        let directory: TemporaryDirectory
        var url: URL { directory.url }
        var trace: URL { url.appendingPathComponent("constructor-ran") }

        init() throws {
            directory = try TemporaryDirectory()
            try FileManager.default.createDirectory(at: url.appendingPathComponent("plugins"), withIntermediateDirectories: true)
        }

        @discardableResult
        /// Compiles a plugin with a constructor and the given extra source (a mark, the type's descriptor and its
        /// conformance to ModuleProtocol by default, as a module class of a Swift plugin declares them).
        func plugin(_ name: String = "libdemo.so", mark: String = CLibrary.mark(), type: String = "$s4Demo6WidgetCMn",
                    conformance: String? = "$s4Demo6WidgetC10ModuleHost0C8ProtocolAAMc", extra: String = "",
                    arguments: [String] = []) throws -> URL {
            let library = url.appendingPathComponent("plugins/\(name)")
            let module = conformance.map { CLibrary.defining($0) } ?? ""
            try CLibrary.compile(mark + CLibrary.constructor(creating: trace) + CLibrary.defining(type) + module + extra, to: library,
                                 extraArguments: arguments)
            return library
        }

        func manifest(_ entries: String...) throws -> URL {
            try directory.write(#"{"modules": [\#(entries.joined(separator: ", "))]}"#, to: "modules.json")
        }
    }

    static func entry(_ library: String = "plugins/libdemo.so", type: String = "Demo.Widget", sha256: String? = nil) -> String {
        #"{"type": "\#(type)", "library": "\#(library)""# + (sha256.map { #", "sha256": "\#($0)""# } ?? "") + "}"
    }

    private func errors(_ diagnostics: [ManifestDiagnostic]) -> [String] {
        diagnostics.filter { $0.severity == .error }.map(\.message)
    }

    @Test func validationReadsThePluginAndRunsNoneOfItsCode() throws {
        let setup = try Setup()
        try setup.plugin()
        let manifest = try setup.manifest(Self.entry())
        let diagnostics = ModuleManager().validateManifest(at: manifest)
        #expect(errors(diagnostics).isEmpty, "\(diagnostics)")
        _ = ModuleManager().validateManifest(try Data(contentsOf: manifest), file: manifest.path)
        #expect(!FileManager.default.fileExists(atPath: setup.trace.path), "validation ran the plugin's constructor")
    }

    @Test func registeringLoadsThePluginOnlyAfterTheChecks() throws {
        let setup = try Setup()
        try setup.plugin(mark: CLibrary.mark(String(repeating: "f", count: 64)))
        let manifest = try setup.manifest(Self.entry())
        #expect(throws: ManifestError.self) { try ModuleManager().registerModules(withConfigFilePath: manifest) }
        #expect(!FileManager.default.fileExists(atPath: setup.trace.path), "a refused plugin ran its constructor")
        // The same plugin, stamped for this host, is loaded when registered (its fake type is then not found).
        try setup.plugin("libgood.so")
        let good = try setup.manifest(Self.entry("plugins/libgood.so"))
        #expect(throws: ManifestError.self) { try ModuleManager().registerModules(withConfigFilePath: good) }
        #expect(FileManager.default.fileExists(atPath: setup.trace.path), "registration loads the library")
    }

    /// A type the file defines but declares no conformance to ModuleProtocol for is not a module: validation says so
    /// at the entry, with no code run, as the run does.
    @Test func aTypeThatIsNotAModuleIsRefusedByValidation() throws {
        let setup = try Setup()
        try setup.plugin(conformance: nil)
        let errors = errors(ModuleManager().validateManifest(at: try setup.manifest(Self.entry())))
        #expect(errors.count == 1)
        #expect(errors.first?.contains("defines \"Demo.Widget\", but not as a module") == true, "\(errors)")
        #expect(errors.first?.contains("it declares no module") == true, "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: setup.trace.path))
    }

    @Test(arguments: [
        ("", "carries no ModuleHost ABI mark (section modulehost_abi)"),
        (CLibrary.mark(String(repeating: "e", count: 64)), "was built against another ModuleHost (ABI eeeeeeeeeeee…) than this host's"),
        ("__attribute__((used, section(\"modulehost_abi\"))) static const char m[] = \"MHABI1 nonsense\";\n", "is not a ModuleHost ABI mark"),
        // This host's mark in the section, none in the code: a section added by hand to a library with no module.
        ("__attribute__((used, section(\"modulehost_abi\"))) static const char m[] = \"\(ABIIdentity.mark)\";\n",
         "but its code carries no ModuleHost ABI mark"),
        // This host's mark in the section, another ModuleHost's in the code: the section written by hand.
        ("__attribute__((used, section(\"modulehost_abi\"))) static const char m[] = \"\(ABIIdentity.mark)\";\n"
            + "__attribute__((used)) static const char c[] = \"MHABI2 \(String(repeating: "e", count: 64)) \(ABIIdentity.triple) \(ABIIdentity.compiler)\";\n",
         "but its code was compiled against ABI eeeeeeeeeeee…"),
    ])
    func markProblemsAreRefusedWithoutRunningThePlugin(mark: String, message: String) throws {
        let setup = try Setup()
        try setup.plugin(mark: mark)
        let errors = errors(ModuleManager().validateManifest(at: try setup.manifest(Self.entry())))
        #expect(errors.count == 1)
        #expect(errors.first?.contains(message) == true, "\(errors)")
        #expect(errors.first?.contains("plugins/libdemo.so") == true)
        #expect(!FileManager.default.fileExists(atPath: setup.trace.path))
    }

    /// A mark that differs from the host's only in the compiler (or only in the target) is
    /// refused, naming both; only one toolchain is installed here, so the other compiler's mark is forged.
    @Test(arguments: [
        (CLibrary.mark(compiler: "Swift version 6.2 (swift-6.2-RELEASE)"),
         ["was built by another Swift compiler (Swift version 6.2 (swift-6.2-RELEASE)) than this host (\(ABIIdentity.compiler))"]),
        (CLibrary.mark(triple: "aarch64-unknown-linux-gnu"),
         ["was built for another target (aarch64-unknown-linux-gnu) than this host's (\(ABIIdentity.triple))"]),
    ])
    func aMarkDifferingOnlyInCompilerOrTargetIsRefused(mark: String, messages: [String]) throws {
        #expect(mark.contains(ABIIdentity.digest), "the forged mark keeps this host's source digest")
        let setup = try Setup()
        try setup.plugin(mark: mark)
        let manifest = try setup.manifest(Self.entry())
        let errors = errors(ModuleManager().validateManifest(at: manifest))
        #expect(errors.count == 1, "\(errors)")
        for message in messages { #expect(errors.first?.contains(message) == true, "\(errors)") }
        #expect { try ModuleManager().registerModules(withConfigFilePath: manifest) } throws: { error in
            (error as? ManifestError)?.diagnostics.contains { messages.allSatisfy($0.message.contains) } == true
        }
        #expect(!FileManager.default.fileExists(atPath: setup.trace.path), "a refused plugin ran its constructor")
    }

    @Test func theTypeMustBeDefinedInTheLibrary() throws {
        let setup = try Setup()
        try setup.plugin()
        let errors = errors(ModuleManager().validateManifest(at: try setup.manifest(Self.entry(type: "Demo.Gadget"))))
        #expect(errors == ["\(setup.url.path)/plugins/libdemo.so defines no type named \"Demo.Gadget\"; it defines \"Demo.Widget\""]
            || errors.first?.contains("defines no type named \"Demo.Gadget\"; it defines \"Demo.Widget\"") == true, "\(errors)")
    }

    @Test func aPluginCarryingItsOwnModuleHostIsDiagnosed() throws {
        let setup = try Setup()
        try setup.plugin(extra: CLibrary.defining("$s10ModuleHost0A7ManagerCMn"))
        let errors = errors(ModuleManager().validateManifest(at: try setup.manifest(Self.entry())))
        #expect(errors.first?.contains("carries its own copy of ModuleHost") == true, "\(errors)")
        #expect(errors.first?.contains("nominal type descriptor for ModuleHost.ModuleManager") == true, "demangled")
    }

    @Test func oneTypeInTwoLibrariesIsAnErrorNamingBoth() throws {
        let setup = try Setup()
        try setup.plugin("one.so")
        let two = try setup.plugin("two.so")
        let sha = try #require(SHA256Digest.hex(of: Data(contentsOf: two)))
        let errors = errors(ModuleManager().validateManifest(at: try setup.manifest(Self.entry("plugins/two.so", sha256: sha),
                                                                                     Self.entry("plugins/one.so"))))
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.allSatisfy { $0.contains("plugins/one.so") && $0.contains("plugins/two.so") && $0.contains("\"Demo.Widget\"") })
        // Alone, the entry pinned to two.so is valid.
        #expect(self.errors(ModuleManager().validateManifest(at: try setup.manifest(Self.entry("plugins/two.so", sha256: sha)))).isEmpty)
    }

    @Test func everyEntrysChecksumIsCheckedEvenForASharedLibrary() throws {
        let setup = try Setup()
        let library = try setup.plugin(extra: CLibrary.defining("$s4Demo6GadgetCMn"))
        let sha = try #require(SHA256Digest.hex(of: Data(contentsOf: library)))
        let manifest = try setup.manifest(Self.entry(sha256: sha), Self.entry(type: "Demo.Gadget", sha256: String(repeating: "0", count: 64)))
        let errors = errors(ModuleManager().validateManifest(at: manifest))
        #expect(errors.count == 1 && errors[0].contains("but the manifest expects 0000"), "\(errors)")
        // Registering: the first entry loads the library, the second is still checked.
        #expect { try ModuleManager().registerModules(withConfigFilePath: manifest) } throws: { error in
            (error as? ManifestError)?.diagnostics.contains { $0.path == "modules[1].library" && $0.message.contains("but the manifest expects 0000") } == true
        }
    }

    @Test func aFIFOIsRefusedWithoutBlocking() async throws {
        let setup = try Setup()
        let fifo = setup.url.appendingPathComponent("plugins/libfifo.so")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        // Should the open block (the old behaviour), a writer appears after 30 s so the test still ends; that the
        // validation needed it is the failure, not a clock.
        let path = fifo.path
        let writerOpened = Locked(false)
        let unblock = Task.detached {
            try await Task.sleep(for: .seconds(30))
            writerOpened.withLock { $0 = true }
            let writer = open(path, O_RDWR | O_NONBLOCK)
            try await Task.sleep(for: .seconds(1))
            close(writer)
        }
        defer { unblock.cancel() }
        let errors = errors(ModuleManager().validateManifest(at: try setup.manifest(Self.entry("plugins/libfifo.so"))))
        #expect(!writerOpened.withLock { $0 }, "opening the FIFO blocked until a writer came")
        #expect(errors == ["\(path) is not a regular file (a FIFO)"], "\(errors)")
    }

    @Test func groupWritableFoldersUpToTheManifestAreRefused() throws {
        let setup = try Setup()
        try setup.plugin()
        let manifest = try setup.manifest(Self.entry())
        for folder in [setup.url.appendingPathComponent("plugins"), setup.url] {
            try FileManager.default.setAttributes([.posixPermissions: 0o775], ofItemAtPath: folder.path)
            let errors = errors(ModuleManager().validateManifest(at: manifest))
            #expect(errors.count == 1 && errors[0].contains("the folder \(folder.path), which holds the plugin"), "\(errors)")
            #expect(errors.first?.contains("can be written by group or others (mode 775); run chmod go-w on it") == true)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        }
        #expect(errors(ModuleManager().validateManifest(at: manifest)).isEmpty)
    }

    /// As root, a folder or file another user owns is refused (root's own files pass, so only this side is testable).
    @Test(.enabled(if: getuid() == 0, "changing ownership needs root"))
    func foldersAndFilesOwnedByAnotherUserAreRefused() throws {
        let setup = try Setup()
        let library = try setup.plugin()
        let manifest = try setup.manifest(Self.entry())
        for item in [library, setup.url.appendingPathComponent("plugins"), setup.url] {
            try #require(chown(item.path, 4242, 4242) == 0)
            let errors = errors(ModuleManager().validateManifest(at: manifest))
            #expect(errors.count == 1 && errors[0].contains("\(item.path)") && errors[0].contains("is owned by another user (uid 4242)"), "\(errors)")
            try #require(chown(item.path, 0, 0) == 0)
        }
        #expect(errors(ModuleManager().validateManifest(at: manifest)).isEmpty)
    }
}
#endif
