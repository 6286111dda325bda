import Foundation
import ModuleHost
import Testing
import TestSupport

/// What a plugin library holds is checked, without running its code: the symbols it needs, the types it defines and
/// which of them are modules, and the ABI mark of the ModuleHost it was built against.
@Suite("Plugins: symbols, types and ABI marks", .enabled(if: SlowLane.isRequested, SlowLane.reason), .timeLimit(.minutes(20)))
struct PluginBinaryCheckTests: PluginSuite {
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
}
