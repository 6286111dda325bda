import Foundation
import ModuleHost
import Testing
import TestSupport

@Suite("Plugins", .timeLimit(.minutes(20)))
struct PluginTests {
    /// A workspace with the built plugin copied to `plugins/` and a manifest naming it.
    private func workspace(entry: (String) -> String) async throws -> Workspace {
        let library = try await PluginBuild.shared.library()
        let workspace = try Workspace(manifest: nil)
        let plugins = workspace.url.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: library, to: plugins.appendingPathComponent("libGreeterPlugin.so"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: plugins.appendingPathComponent("libGreeterPlugin.so").path)
        let sha = try Self.sha256(of: plugins.appendingPathComponent("libGreeterPlugin.so"))
        try workspace.write(#"{"modules": ["ClockModule.ClockModule", \#(entry(sha))]}"#, to: "modules.json")
        return workspace
    }

    private static func sha256(of url: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }

    /// C definitions of the symbols that make `GreeterPlugin.GreeterModule` a module type of the file: its nominal type
    /// descriptor, and its conformance descriptor to ModuleProtocol.
    static let greeterModuleSymbols = #"const int t __asm__("$s13GreeterPlugin0A6ModuleCMn") = 1;"# + "\n"
        + #"const int c __asm__("$s13GreeterPlugin0A6ModuleC0C4Host0C8ProtocolAAMc") = 1;"# + "\n"

    /// The C declaration of an ABI mark carrying the source digest `identity` (the host's by default) and this
    /// host's target and compiler (ABIIdentity is generated into the build of the ModuleHost under test).
    static func mark(_ identity: String? = nil) throws -> String {
        let text = "MHABI2 \(identity ?? ABIIdentity.digest) \(ABIIdentity.triple) \(ABIIdentity.compiler)"
        // The section the host reads first, and the same mark in the code, where a Swift module type carries it.
        return "__attribute__((used, section(\"modulehost_abi\"))) static const char modulehost_abi_mark[] = \"\(text)\";\n"
            + "__attribute__((used)) static const char modulehost_code_mark[] = \"\(text)\";\n"
    }

    /// Compiles C `source` into the shared library `library` inside the workspace, stamped with the host's mark
    /// unless `marked` is false.
    private static func compileC(_ source: String, to library: String, in workspace: Workspace, marked: Bool = true,
                                 arguments: [String] = []) throws {
        let file = try workspace.write((marked ? try mark() : "") + source, to: "source-\(UUID().uuidString).c")
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        compile.arguments = ["-shared", "-fPIC"] + arguments + ["-o", workspace.url.appendingPathComponent(library).path, file.path]
        try compile.run()
        compile.waitUntilExit()
        try #require(compile.terminationStatus == 0)
    }

    private static func greeter(library: String = "plugins/libGreeterPlugin.so", sha256: String? = nil,
                                type: String = "GreeterPlugin.GreeterModule", optional: Bool = false) -> String {
        var fields = [#""type": "\#(type)""#, #""library": "\#(library)""#]
        if let sha256 { fields.append(#""sha256": "\#(sha256)""#) }
        if optional { fields.append(#""optional": true"#) }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    @Test func pluginModuleLoadsResolvesAndRunsItsStartupOperation() async throws {
        let workspace = try await workspace { Self.greeter(sha256: $0) }
        let result = try await workspace.run(["--json"], input: "greet Ada\nservices\nmodules\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Hello, Ada, from a plugin!"))
        #expect(result.stdout.contains(#""service":"GreeterPlugin.GreetingService""#))
        #expect(result.stdout.contains(#""status":"loaded""#), "greet loaded it; services lists its state")
        #expect(result.stdout.contains(#""identifier":"greeter.warm-up""#))
        #expect(result.stdout.contains(#""state":"succeeded""#))
        #expect(result.stdout.contains("plugins/libGreeterPlugin.so"))
        let graph = try await workspace.run(["graph"])
        #expect(graph.stdout.contains("greeter.warm-up"))
        #expect(try await workspace.run(["validate"]).status == 0)
    }

    @Test func checksumMismatchRefusesTheLoad() async throws {
        let workspace = try await workspace { _ in Self.greeter(sha256: String(repeating: "0", count: 64)) }
        for arguments in [["validate"], []] {
            let result = try await workspace.run(arguments, input: "greet Ada\n")
            #expect(result.status == 65)
            #expect(result.stderr.contains("modules[1].library: the SHA-256 of"))
            #expect(result.stderr.contains("the library was not loaded"))
            #expect(!result.stdout.contains("Hello"), "nothing ran")
        }
    }

    @Test func pathThatEscapesTheManifestFolderIsRefused() async throws {
        // A real library, reachable from the manifest's folder only through "..".
        let elsewhere = try Workspace(manifest: nil)
        let library = try await PluginBuild.shared.library()
        try FileManager.default.copyItem(at: library, to: elsewhere.url.appendingPathComponent("libGreeterPlugin.so"))
        let workspace = try await workspace { _ in Self.greeter(library: "../\(elsewhere.url.lastPathComponent)/libGreeterPlugin.so") }
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("modules[1].library"))
        #expect(result.stderr.contains(#"through "..""#))
        #expect(result.stderr.contains("outside the manifest's folder"))
    }

    @Test func symbolicLinkThatEscapesIsRefused() async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/link.so") }
        let elsewhere = try Workspace(manifest: nil)
        let target = elsewhere.url.appendingPathComponent("libGreeterPlugin.so")
        try FileManager.default.copyItem(at: workspace.url.appendingPathComponent("plugins/libGreeterPlugin.so"), to: target)
        try FileManager.default.createSymbolicLink(at: workspace.url.appendingPathComponent("plugins/link.so"), withDestinationURL: target)
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("through a symbolic link"))
        #expect(result.stderr.contains("outside the manifest's folder"))
        withExtendedLifetime(elsewhere) {}
    }

    @Test func libraryWritableByOthersIsRefused() async throws {
        let workspace = try await workspace { Self.greeter(sha256: $0) }
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: workspace.url.appendingPathComponent("plugins/libGreeterPlugin.so").path)
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("can be written by group or others (mode 666)"))
    }

    @Test func missingLibraryIsRefused() async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/libNope.so") }
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("no plugin library at"))
    }

    @Test func wrongArchitectureIsRefused() async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/lib32.so") }
        // An ELF header for a 32-bit object: the loader refuses it by its class.
        var header = [UInt8](repeating: 0, count: 64)
        header[0...6] = [0x7F, 0x45, 0x4C, 0x46, 1, 1, 1]
        header[16] = 3  // ET_DYN
        header[18] = 3  // EM_386
        try Data(header).write(to: workspace.url.appendingPathComponent("plugins/lib32.so"))
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("a library for another architecture"))
    }

    @Test func fileThatIsNotALibraryIsRefused() async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/notes.txt") }
        try workspace.write("just text", to: "plugins/notes.txt")
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("is not a shared library"))
    }

    @Test func missingSymbolIsRefusedBeforeLoadingAndDemangled() async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/libmissing.so") }
        // A ModuleHost symbol this host does not have (a getter of a property ModuleManager lacks).
        // (Intel syntax: in AT&T syntax the assembler reads the "$" of a referenced Swift name as an immediate.)
        try Self.compileC(#"extern int nobody __asm__("$s10ModuleHost0A7ManagerC6nobodySivg");"# + "\nint call(void) { return nobody; }\n"
                          + Self.greeterModuleSymbols,
                          to: "plugins/libmissing.so", in: workspace, arguments: ["-masm=intel"])
        for arguments in [["validate"], []] {
            let result = try await workspace.run(arguments)
            #expect(result.status == 65)
            #expect(result.stderr.contains("needs a symbol this host's ModuleHost does not export (was it built against another ModuleHost?): ModuleHost.ModuleManager.nobody.getter : Swift.Int"), "\(result.stderr)")
        }
    }

    @Test func aSymbolTheLoaderCannotFindIsItsDetail() async throws {
        // Not a ModuleHost symbol, so only the dynamic loader finds it missing, when the app runs.
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/libmissing.so") }
        try Self.compileC("extern void modulehost_symbol_nobody_defines(void);\nvoid call(void) { modulehost_symbol_nobody_defines(); }\n"
                          + Self.greeterModuleSymbols,
                          to: "plugins/libmissing.so", in: workspace)
        let result = try await workspace.run([])
        #expect(result.status == 65)
        #expect(result.stderr.contains("the dynamic loader refused"))
        #expect(result.stderr.contains("modulehost_symbol_nobody_defines"))
    }

    @Test func typeNotInTheLibraryIsRefused() async throws {
        let workspace = try await workspace { Self.greeter(sha256: $0, type: "GreeterPlugin.FarewellModule") }
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("libGreeterPlugin.so defines no type named \"GreeterPlugin.FarewellModule\"; it defines"), "\(result.stderr)")
        #expect(result.stderr.contains("\"GreeterPlugin.GreeterModule\""))
    }

    /// The file declares which of its types are modules (their conformances to ModuleProtocol), so `validate` refuses
    /// a class that is not one, at its entry and with no code loaded, as the run does.
    @Test func typeThatIsNotAModuleIsRefusedByValidateAndByTheRun() async throws {
        let workspace = try await workspace { Self.greeter(sha256: $0, type: "GreeterPlugin.GreeterHelper") }
        for arguments in [["validate"], []] {
            let result = try await workspace.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("modules.json:1:"), "located at the entry: \(result.stderr)")
            #expect(result.stderr.contains("defines \"GreeterPlugin.GreeterHelper\", but not as a module"), "\(result.stderr)")
            #expect(result.stderr.contains("its modules are \"GreeterPlugin.GreeterModule\""), "\(result.stderr)")
        }
    }

    @Test func optionalPluginThatFailsLeavesTheRestRunning() async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/libNope.so", optional: true) }
        let result = try await workspace.run(["-q"], input: "uptime\nmodules\n")
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: modules[1].library: no plugin library at"))
        #expect(result.stderr.contains("the module is optional, so it is left out"))
        #expect(result.stdout.hasPrefix("up "))
        #expect(!result.stdout.contains("com.example.greeter"))
    }

    @Test func twoPluginLibrariesAreEachLoadedFromTheirOwnFile() async throws {
        // First a plain C library (an optional entry whose type it does not define), then the Greeter plugin:
        // each must be loaded from its own file, not handed the library loaded before it.
        let workspace = try await workspace { sha in
            Self.greeter(library: "plugins/libplain.so", type: "Plain.Nothing", optional: true) + ", " + Self.greeter(sha256: sha)
        }
        try Self.compileC("int plain_answer(void) { return 42; }\n", to: "plugins/libplain.so", in: workspace)
        let result = try await workspace.run(["-q"], input: "greet Bo\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("defines no type named \"Plain.Nothing\""))
        #expect(result.stdout.contains("Hello, Bo, from a plugin!"))
    }

    @Test func requiredPluginThatFailsStopsBeforeAnyOperationRuns() async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/libNope.so") }
        let result = try await workspace.run([], input: "uptime\n")
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty, "no report, no command: nothing started")
    }

    /// A C plugin defining the Greeter's type name, whose constructor creates `constructor-ran` in the workspace.
    private static func tracingPlugin(in workspace: Workspace, mark: String? = nil) throws -> URL {
        let trace = workspace.url.appendingPathComponent("constructor-ran")
        let source = try (mark ?? Self.mark()) + Self.greeterModuleSymbols + "#include <stdio.h>\n"
            + "__attribute__((constructor)) static void loaded(void) { FILE *f = fopen(\"\(trace.path)\", \"w\"); if (f) fclose(f); }\n"
        try Self.compileC(source, to: "plugins/libtrace.so", in: workspace, marked: false)
        return trace
    }

    @Test func validateRunsNoPluginCode() async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/libtrace.so") }
        let trace = try Self.tracingPlugin(in: workspace)
        let result = try await workspace.run(["validate"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: trace.path), "validate ran the plugin's constructor")
        // Running the app loads it (and then finds no real type behind the name).
        _ = try await workspace.run([])
        #expect(FileManager.default.fileExists(atPath: trace.path), "running the app loads the plugin")
    }

    @Test(arguments: [
        (String(repeating: "a", count: 64), "was built against another ModuleHost (ABI aaaaaaaaaaaa…) than this host's (ABI "),
        (nil, "carries no ModuleHost ABI mark (section modulehost_abi)"),
    ])
    func aPluginForAnotherHostIsRefusedBeforeItRuns(identity: String?, message: String) async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/libtrace.so") }
        let trace = try Self.tracingPlugin(in: workspace, mark: identity.map { try Self.mark($0) } ?? "")
        for arguments in [["validate"], []] {
            let result = try await workspace.run(arguments, input: "uptime\n")
            #expect(result.status == 65)
            #expect(result.stderr.contains("modules[1].library: \(workspace.url.path)/plugins/libtrace.so") || result.stderr.contains("plugins/libtrace.so"))
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(identity == nil || result.stderr.contains("rebuild the plugin against this host"))
            #expect(!FileManager.default.fileExists(atPath: trace.path), "a refused plugin ran")
        }
    }

    @Test func aFIFOIsRefusedWithoutBlocking() async throws {
        let workspace = try await workspace { _ in Self.greeter(library: "plugins/libfifo.so") }
        let fifo = workspace.url.appendingPathComponent("plugins/libfifo.so").path
        try #require(mkfifo(fifo, 0o644) == 0)
        // Should app-shell block in open() (the old behaviour, deaf to SIGTERM), a writer appears after 45 s (within
        // the runs' 60 s watchdog) to let it go: the runs then needed the writer, and that is the failure, not a clock.
        let writerOpened = Locked(false)
        let unblock = Task.detached {
            try await Task.sleep(for: .seconds(45))
            writerOpened.withLock { $0 = true }
            let writer = open(fifo, O_RDWR | O_NONBLOCK)
            try await Task.sleep(for: .seconds(2))
            close(writer)
        }
        defer { unblock.cancel() }
        for arguments in [["validate"], []] {
            let result = try await workspace.run(arguments)
            #expect(result.status == 65)
            #expect(result.stderr.contains("is not a regular file (a FIFO)"), "\(result.stderr)")
        }
        #expect(!writerOpened.withLock { $0 }, "app-shell blocked opening the FIFO until a writer came")
    }

    @Test func groupWritableFoldersAreRefused() async throws {
        let workspace = try await workspace { Self.greeter(sha256: $0) }
        for folder in [workspace.url.appendingPathComponent("plugins"), workspace.url] {
            try FileManager.default.setAttributes([.posixPermissions: 0o775], ofItemAtPath: folder.path)
            let result = try await workspace.run(["validate"])
            #expect(result.status == 65)
            #expect(result.stderr.contains("the folder \(folder.path), which holds the plugin"), "\(result.stderr)")
            #expect(result.stderr.contains("can be written by group or others (mode 775); run chmod go-w on it"))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        }
    }

    @Test func aPluginCommandNamedLikeAModulesOrTheShellsIsAnErrorNamingBoth() async throws {
        let library = try await PluginBuild.shared.clashingLibrary()
        let workspace = try Workspace(manifest: nil)
        let plugins = workspace.url.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: library, to: plugins.appendingPathComponent("libGreeterPlugin.so"))
        try workspace.write(#"{"modules": ["ClockModule.ClockModule", "NumbersModule.NumbersModule", \#(Self.greeter())]}"#, to: "modules.json")
        let result = try await workspace.run([], input: "uptime\n")
        #expect(result.status == 65)
        // A route clash is one more located error, naming both modules.
        #expect(result.stderr.contains(#"modules.json:1:"#))
        #expect(result.stderr.contains(#"modules[2].type: the route "greeter.hello" (/numbers/fact/:name) of GreeterPlugin.GreeterModule (modules[2]) and the route "numbers.fact" (/numbers/fact/:n) of NumbersModule.NumbersModule (modules[1]) match the same links"#),
                "\(result.stderr)")
        #expect(result.stderr.contains(#"GreeterPlugin.GreeterModule declares the command "uptime", which ClockModule.ClockModule (modules[0]) already declares"#),
                "\(result.stderr)")
        #expect(result.stderr.contains(#"GreeterPlugin.GreeterModule declares the command "services", which is one of the host's own commands"#))
        #expect(!result.stdout.contains("up "), "nothing ran")
    }

    /// Runs `app-shell validate` in `workspace` as user `uid` (through setpriv), without blocking a thread of the
    /// cooperative pool; returns its status and stderr.
    private static func validate(as uid: uid_t, in workspace: Workspace) async throws -> (status: Int32, stderr: String) {
        let result = try await ShellProcess.run(["validate"], in: workspace.url, as: (uid, uid))
        return (result.status, result.stderr)
    }

    /// Another user's view: folders and a library owned by root pass, the user's own pass, a third user's are refused.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv"))
    func foldersOwnedByAThirdUserAreRefusedForAnyUser() async throws {
        let workspace = try await workspace { Self.greeter(sha256: $0) }
        let plugins = workspace.url.appendingPathComponent("plugins").path
        #expect(try await Self.validate(as: 4242, in: workspace).status == 0, "root's folders and file are trusted")
        try #require(chown(plugins, 4242, 4242) == 0)
        #expect(try await Self.validate(as: 4242, in: workspace).status == 0, "the user's own folder is trusted")
        try #require(chown(plugins, 4243, 4243) == 0)
        let refused = try await Self.validate(as: 4242, in: workspace)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("the folder \(plugins), which holds the plugin"), "\(refused.stderr)")
        #expect(refused.stderr.contains("is owned by another user (uid 4243)"))
        try #require(chown(plugins, 0, 0) == 0)
    }
}
