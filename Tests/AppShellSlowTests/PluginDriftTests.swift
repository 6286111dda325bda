import Foundation
import Testing
import TestSupport
import ModuleHostTesting

/// A plugin built against one ModuleHost and loaded into another: the host compares the
/// plugin's `modulehost_abi` mark with its own identity before loading anything, so a layout or signature drift
/// is refused with exit 65, naming the plugin and both identities, and no plugin code runs.
///
/// Each "other host" is app-shell built by plain `swift build` from a copy of this repository with one change
/// (``DriftHost``); no script computes its identity. Each case is checked in both directions (a plugin built
/// against this repository in the changed host, and a plugin built against the changed host in this repository's
/// app-shell), with `validate` and with a run.
@Suite("Plugin ABI drift", .enabled(if: SlowLane.isRequested, SlowLane.reason), .disabled(if: Sanitizers.threadSanitizerIsActive, "CPU-bound, proves no concurrency property; runs in the plain suite"), .enabled(if: DriftFixture.supported, "ELF plugins: stamped with objcopy"), .timeLimit(.minutes(30)))
struct PluginDriftTests {
    @Test func publicStructLayoutChangeIsRefused() async throws {
        try await DriftFixture.expectRefusal(.structLayout)
    }

    @Test func publicClassLayoutChangeIsRefused() async throws {
        try await DriftFixture.expectRefusal(.classLayout)
    }

    @Test func publicFunctionSignatureChangeIsRefused() async throws {
        try await DriftFixture.expectRefusal(.signature)
    }

    /// The control: in the host it was built against (app-shell), the same plugin loads and its constructor runs,
    /// so the marker's absence in the other tests means something.
    @Test func driftPluginLoadsIntoTheHostItWasBuiltAgainst() async throws {
        let plugin = try await DriftFixture.plugin.value
        let workspace = try ProcessScratch.folder("drift-control")
        defer { try? FileManager.default.removeItem(at: workspace) }
        try await PluginToolchain.install(plugin.library, type: "DriftPlugin.DriftModule", in: workspace)
        let marker = workspace.appendingPathComponent("constructor-ran")
        let result = try await ShellProcess.run(["--json"], input: "modules\n", in: workspace,
                                                environment: [DriftFixture.markerVariable: marker.path])
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stdout.contains("com.example.drift"), "\(result.all)")
        #expect(FileManager.default.fileExists(atPath: marker.path), "the plugin's constructor did not run")
    }
}

enum DriftFixture {
    static let supported: Bool = {
        #if os(Linux)
        true
        #else
        false
        #endif
    }()

    /// The environment variable naming the file the plugin's C constructor writes when the library is loaded.
    static let markerVariable = "MODULEHOST_DRIFT_MARKER"

    struct Plugin: Sendable {
        let library: URL
        /// The mark the library was stamped with: the one its code carries.
        let mark: String
    }

    /// The drift plugin, built once per test process against the app-shell under test and stamped.
    static let plugin = Task { () async throws -> Plugin in
        try await BuildQueue.shared.enqueue { try await buildPlugin(against: try PluginToolchain.hostModules, name: "this-host") }
    }

    private static let module = """
        import ModuleHost

        /// A plugin module that uses each thing the drift tests change: ModuleStartupOperation's layout and
        /// initializer, and ModuleManager's stored properties (read at the offsets this plugin was compiled with).
        public final class DriftModule: ModuleProtocol {
            public static let moduleIdentifier: ModuleIdentifier = "com.example.drift"
            public static var contributions: [Contribution] { startupOperations.map(Contribution.startupOperation) }
            public static let startupOperations: [ModuleStartupOperation] = [
                ModuleStartupOperation("drift.start", priority: .asyncHigh, dependencies: []) { context in
                    if let manager = context as? ModuleManager { print("drift plugin: \\(String(describing: manager.bridge))") }
                },
            ]
            public init(context: any ModuleContext) {}
        }

        """

    private static let constructor = """
        #include <stdio.h>
        #include <stdlib.h>

        /* Runs when the library is loaded: proves whether any plugin code ran. */
        __attribute__((constructor)) static void drift_plugin_loaded(void) {
            const char *path = getenv("\(markerVariable)");
            if (path == NULL) return;
            FILE *file = fopen(path, "w");
            if (file != NULL) { fputs("plugin code ran\\n", file); fclose(file); }
        }

        """

    /// Compiles the drift plugin against the ModuleHost interface in `modules` and stamps it (the stamp refuses a
    /// library that does not carry that interface's mark).
    static func buildPlugin(against modules: URL, name: String) async throws -> Plugin {
        let folder = try ProcessScratch.folder("drift-plugin-\(name)")
        let swift = folder.appendingPathComponent("DriftModule.swift"), c = folder.appendingPathComponent("constructor.c")
        try Data(module.utf8).write(to: swift)
        try Data(constructor.utf8).write(to: c)
        let object = folder.appendingPathComponent("constructor.o"), library = folder.appendingPathComponent("libDriftPlugin.so")
        try await PluginToolchain.step(["cc", "-c", "-fPIC", "-o", object.path, c.path])
        try await PluginToolchain.step(["swiftc", "-emit-library", "-module-name", "DriftPlugin", "-parse-as-library", "-swift-version", "6",
                                        "-I", modules.path, "-o", library.path, swift.path, object.path])
        try await PluginToolchain.stamp(library, interface: modules)
        return Plugin(library: library, mark: try await PluginToolchain.stampedMark(of: library))
    }

    /// Builds the host with `change` and a plugin against it; expects the contract's refusal in both directions.
    static func expectRefusal(_ change: DriftHost.Change) async throws {
        let plugin = try await plugin.value
        let (host, reverse) = try await BuildQueue.shared.enqueue {
            let host = try await DriftHost.build(change)
            return (host, try await buildPlugin(against: host.modules, name: change.name))
        }
        defer { try? FileManager.default.removeItem(at: host.executable.deletingLastPathComponent()) }
        #expect(host.mark != plugin.mark, "the \(change.name) change did not change the ABI identity")
        #expect(reverse.mark == host.mark, "the plugin built against the changed host does not carry its mark")
        try await expectRefused(plugin, by: host.executable, hostMark: host.mark, case: "\(change.name), this plugin in the changed host")
        try await expectRefused(reverse, by: try ShellProcess.executable, hostMark: plugin.mark, case: "\(change.name), the changed plugin in this host")
        // The section written by hand with this host's mark, as stamp-plugin.sh's objcopy line would: the code
        // still carries the changed host's mark, and the host compares the two.
        let forged = try await withSection(plugin.mark, on: reverse)
        try await expectRefused(forged, by: try ShellProcess.executable, hostMark: plugin.mark,
                                case: "\(change.name), the changed plugin with this host's mark written into its section")
    }

    /// A copy of `plugin` whose `modulehost_abi` section holds `mark`, written with objcopy; its code is unchanged.
    static func withSection(_ mark: String, on plugin: Plugin) async throws -> Plugin {
        let folder = try ProcessScratch.folder("drift-forged")
        let markFile = folder.appendingPathComponent("mark"), library = folder.appendingPathComponent("libDriftPlugin.so")
        try Data((mark + "\n").utf8).write(to: markFile)
        try await PluginToolchain.step(["objcopy", "--remove-section", "modulehost_abi", plugin.library.path, library.path])
        try await PluginToolchain.step(["objcopy", "--add-section", "modulehost_abi=\(markFile.path)",
                                        "--set-section-flags", "modulehost_abi=readonly,contents", library.path])
        #expect(try await PluginToolchain.stampedMark(of: library).hasPrefix(mark), "objcopy did not write the section")
        // The plugin's own mark, for the messages: the one its code carries.
        return Plugin(library: library, mark: plugin.mark)
    }

    /// Installs `plugin` and runs `validate`, then the app, with `host`: both exit 65 naming the plugin and both
    /// identities, and the plugin's constructor never runs.
    static func expectRefused(_ plugin: Plugin, by host: URL, hostMark: String, case name: String) async throws {
        let workspace = try ProcessScratch.folder("drift-run")
        defer { try? FileManager.default.removeItem(at: workspace) }
        try await PluginToolchain.install(plugin.library, type: "DriftPlugin.DriftModule", in: workspace)
        let marker = workspace.appendingPathComponent("constructor-ran")
        for arguments in [["validate"], []] {
            let result = try await PluginToolchain.run([host.path] + arguments, in: workspace,
                                                       environment: [markerVariable: marker.path], timeout: .seconds(60))
            let label = "\(name), app-shell \(arguments.joined())"
            #expect(!result.signaled, "\(label): the host crashed (signal \(result.status)):\n\(result.all)")
            #expect(result.status == 65, "\(label): \(result.all)")
            #expect(result.stderr.contains("libDriftPlugin.so"), "\(label): the refusal does not name the plugin:\n\(result.stderr)")
            for mark in [plugin.mark, hostMark] {
                let digest = String((mark.split(separator: " ").dropFirst().first ?? "").prefix(12))
                #expect(digest.count == 12 && result.stderr.contains(digest), "\(label): the refusal does not show \(digest):\n\(result.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: marker.path), "\(label): plugin code ran before the refusal")
        }
    }
}
