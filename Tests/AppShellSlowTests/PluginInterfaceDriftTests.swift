import Foundation
import Testing
import TestSupport
import ModuleHostTesting

/// A plugin uses other modules of the host besides ModuleHost: here ClockInterface, an interface target of the
/// app, whose service it calls. Its section records that module's identity, so a plugin built against an earlier
/// ClockInterface is refused once the interface changes, while ModuleHost (and its mark) is untouched. And each
/// library computes its own identity: an edit in ModuleHostRouting does not rebuild ModuleHost.
@Suite("Plugin interface drift", .enabled(if: SlowLane.isRequested, SlowLane.reason), .disabled(if: Sanitizers.threadSanitizerIsActive, "CPU-bound, proves no concurrency property; runs in the plain suite"),
       .enabled(if: DriftFixture.supported, "ELF plugins: stamped with objcopy"), .timeLimit(.minutes(30)))
struct PluginInterfaceDriftTests {
    static let type = "ClockPlugin.ClockUserModule"

    static let module = """
        import ClockInterface
        import ModuleHost

        /// A plugin module that calls the host's ClockService, from ClockInterface.
        public final class ClockUserModule: ModuleProtocol {
            public static let moduleIdentifier: ModuleIdentifier = "com.example.clock-user"
            public static var contributions: [Contribution] {
                [.command(ModuleCommand("clock-user", summary: "the host's uptime, through ClockService") { context in
                    .text("clock-user: \\(try context.manager.bridge.resolve(ClockService.self).uptime() < .seconds(3_600))")
                })]
            }
            public init(context: any ModuleContext) {}
        }

        """

    /// The plugin, built against the app-shell under test and stamped.
    static let plugin = Task { () async throws -> DriftFixture.Plugin in
        try await BuildQueue.shared.enqueue { try await buildPlugin(against: try PluginToolchain.hostModules, name: "this-host") }
    }

    static func buildPlugin(against modules: URL, name: String) async throws -> DriftFixture.Plugin {
        let folder = try ProcessScratch.folder("clock-plugin-\(name)")
        let source = folder.appendingPathComponent("ClockUserModule.swift"), library = folder.appendingPathComponent("libClockPlugin.so")
        try Data(module.utf8).write(to: source)
        try await PluginToolchain.step(["swiftc", "-emit-library", "-module-name", "ClockPlugin", "-parse-as-library", "-swift-version", "6",
                                        "-I", modules.path, "-o", library.path, source.path])
        try await PluginToolchain.stamp(library, interface: modules)
        return DriftFixture.Plugin(library: library, mark: try await PluginToolchain.stampedMark(of: library))
    }

    /// Installs the plugin beside the ClockModule that provides ClockService.
    private static func install(_ plugin: DriftFixture.Plugin, in workspace: URL) async throws {
        try await PluginToolchain.install(plugin.library, type: type, in: workspace)
        let sha = try await PluginToolchain.sha256(of: workspace.appendingPathComponent("plugins/libClockPlugin.so"))
        let manifest = #"{"modules": ["ClockModule.ClockModule", {"type": "\#(type)", "library": "plugins/libClockPlugin.so", "sha256": "\#(sha)"}]}"#
        try Data(manifest.utf8).write(to: workspace.appendingPathComponent("modules.json"))
    }

    @Test func theSectionRecordsClockInterfaceAndThePluginRunsInTheHostItWasBuiltAgainst() async throws {
        let plugin = try await Self.plugin.value
        let modules = try await PluginToolchain.stampedModules(of: plugin.library)
        #expect(modules.contains { $0.hasPrefix("MHMOD ClockInterface ") }, "\(modules)")
        #expect(!modules.contains { $0.hasPrefix("MHMOD ModuleHostState ") }, "the plugin uses no ModuleHostState: \(modules)")
        let workspace = try ProcessScratch.folder("clock-plugin-control")
        defer { try? FileManager.default.removeItem(at: workspace) }
        try await Self.install(plugin, in: workspace)
        let result = try await ShellProcess.run(["clock-user"], in: workspace)
        #expect(result.status == 0 && result.stdout.contains("clock-user: true"), "\(result.all)")
    }

    @Test func aPluginBuiltAgainstAnEarlierClockInterfaceIsRefusedWhileModuleHostIsUntouched() async throws {
        let plugin = try await Self.plugin.value
        let (host, reverse) = try await BuildQueue.shared.enqueue {
            let host = try await DriftHost.build(.clockRequirement)
            return (host, try await Self.buildPlugin(against: host.modules, name: "clock-requirement"))
        }
        defer { try? FileManager.default.removeItem(at: host.executable.deletingLastPathComponent()) }
        #expect(host.mark == plugin.mark, "ModuleHost's mark changed, though only ClockInterface did")
        // Stamping the old library again with the changed host's folder is refused: it was not rebuilt since.
        let folder = try ProcessScratch.folder("clock-plugin-restamp")
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("libClockPlugin.so")
        try FileManager.default.copyItem(at: plugin.library, to: copy)
        let restamp = try await PluginToolchain.stampScript([copy.path, "--interface", host.modules.path])
        #expect(restamp.status == 1 && restamp.stderr.contains("was stamped against another ClockInterface"), "\(restamp.all)")
        for (plugin, executable, label) in [(plugin, host.executable, "this plugin in the changed host"),
                                            (reverse, try ShellProcess.executable, "the changed plugin in this host")] {
            let workspace = try ProcessScratch.folder("clock-plugin-run")
            defer { try? FileManager.default.removeItem(at: workspace) }
            try await Self.install(plugin, in: workspace)
            for arguments in [["validate"], ["clock-user"]] {
                let result = try await PluginToolchain.run([executable.path] + arguments, in: workspace, timeout: .seconds(60))
                let name = "\(label), app-shell \(arguments.joined())"
                #expect(!result.signaled, "\(name): the host crashed:\n\(result.all)")
                #expect(result.status == 65, "\(name): \(result.all)")
                #expect(result.stderr.contains("libClockPlugin.so") && result.stderr.contains("another ClockInterface"), "\(name): \(result.stderr)")
                #expect(!result.stdout.contains("clock-user:"), "\(name): the plugin's command ran")
            }
        }
    }

    @Test func editingModuleHostRoutingDoesNotRebuildModuleHost() async throws {
        let (before, after, routing) = try await BuildQueue.shared.enqueue {
            let first = try await DriftHost.build(.clockRequirement)
            try? FileManager.default.removeItem(at: first.executable.deletingLastPathComponent())
            let before = try await DriftHost.objectDates(of: "ModuleHost")
            let routingBefore = try await DriftHost.objectDates(of: "ModuleHostRouting")
            let second = try await DriftHost.build(.routingComment)
            try? FileManager.default.removeItem(at: second.executable.deletingLastPathComponent())
            let routingAfter = try await DriftHost.objectDates(of: "ModuleHostRouting")
            return (before, try await DriftHost.objectDates(of: "ModuleHost"), routingBefore != routingAfter)
        }
        try #require(!before.isEmpty, "no ModuleHost object files found in the copy's build")
        #expect(routing, "ModuleHostRouting was not rebuilt: did the edit reach the build?")
        #expect(before == after, "ModuleHost was rebuilt for an edit in ModuleHostRouting: \(after.filter { before[$0.key] != $0.value }.keys.sorted())")
    }
}
