import Foundation
import Testing
import TestSupport
import ModuleHostTesting

/// Change the host, rebuild the plugin the way the article says (Examples/GreeterPlugin/build.sh,
/// no clean build), and load it. The plugin is either really recompiled (it carries the new host's mark and loads)
/// or refused; it is never stamped with a mark its code was not compiled against.
@Suite("Plugin rebuild after a host change", .enabled(if: SlowLane.isRequested, SlowLane.reason), .disabled(if: Sanitizers.threadSanitizerIsActive, "CPU-bound, proves no concurrency property; runs in the plain suite"), .enabled(if: DriftFixture.supported, "ELF plugins: stamped with objcopy"), .timeLimit(.minutes(30)))
struct PluginRebuildTests {
    struct Built: Sendable {
        let before: DriftHost, after: DriftHost
        let first: URL, second: URL
    }

    @Test func aRebuiltPluginIsRecompiledOrRefusedNeverStampedStale() async throws {
        let built = try await BuildQueue.shared.enqueue { () async throws -> Built in
            let package = try Self.copyOfTheExample()
            let before = try await DriftHost.underTest()
            let first = try await Self.buildExample(package, against: before.modules)
            let after = try await DriftHost.build(.identifier)
            return Built(before: before, after: after, first: first, second: try await Self.buildExample(package, against: after.modules))
        }
        #expect(built.before.mark != built.after.mark)
        #expect(try await PluginToolchain.stampedMark(of: built.first) == built.before.mark)
        // Recompiled: the second library carries the changed host's mark, and that host loads it and runs its command.
        #expect(try await PluginToolchain.stampedMark(of: built.second) == built.after.mark, "build.sh did not recompile the plugin")
        let workspace = try ProcessScratch.folder("rebuilt-plugin")
        defer { try? FileManager.default.removeItem(at: workspace) }
        try await PluginToolchain.install(built.second, type: "GreeterPlugin.GreeterModule", in: workspace)
        let validated = try await PluginToolchain.run([built.after.executable.path, "validate"], in: workspace, timeout: .seconds(60))
        #expect(validated.status == 0, "\(validated.all)")
        let greeted = try await PluginToolchain.run(["/bin/sh", "-c", #"printf 'greet Ada\n' | "$0""#, built.after.executable.path],
                                                   in: workspace, timeout: .seconds(60))
        #expect(greeted.status == 0 && greeted.stdout.contains("Hello, Ada, from a plugin!"), "\(greeted.all)")

        // The library built before the change, stamped for the changed interface: refused, not stamped.
        let stale = workspace.appendingPathComponent("libStale.so")
        try FileManager.default.copyItem(at: built.first, to: stale)
        let refused = try await PluginToolchain.stampScript([stale.path, "--interface", built.after.modules.path])
        #expect(refused.status == 1 && refused.stderr.contains("was not compiled against the ModuleHost in"), "\(refused.all)")
        #expect(try await PluginToolchain.stampedMark(of: stale) == built.before.mark, "the stale library's stamp changed")
        // Stamped without naming the interface, it keeps the mark its code carries, and the changed host refuses it.
        #expect(try await PluginToolchain.stampScript([stale.path]).status == 0)
        try FileManager.default.removeItem(at: workspace.appendingPathComponent("plugins"))
        try await PluginToolchain.install(stale, type: "GreeterPlugin.GreeterModule", in: workspace)
        let loaded = try await PluginToolchain.run([built.after.executable.path, "validate"], in: workspace, timeout: .seconds(60))
        #expect(!loaded.signaled && loaded.status == 65 && loaded.stderr.contains("was built against another ModuleHost"), "\(loaded.all)")
    }

    /// A copy of Examples/GreeterPlugin (its package, sources and build.sh).
    private static func copyOfTheExample() throws -> URL {
        let copy = try ProcessScratch.folder("greeter-rebuild")
        let example = PluginToolchain.root.appendingPathComponent("Examples/GreeterPlugin")
        for item in ["Package.swift", "build.sh", "Sources"] {
            try FileManager.default.copyItem(at: example.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        return copy
    }

    /// Runs the example's build.sh against `modules`, always with the same scratch folder; returns the stamped library.
    private static func buildExample(_ package: URL, against modules: URL) async throws -> URL {
        let destination = try ProcessScratch.folder("greeter-rebuilt")
        try await PluginToolchain.step(["/bin/bash", package.appendingPathComponent("build.sh").path, destination.path], environment: [
            "MODULEHOST_MODULES": modules.path, "MODULEHOST_ROOT": PluginToolchain.root.path,
            "PLUGIN_SCRATCH": package.appendingPathComponent(".build").path,
        ])
        return destination.appendingPathComponent("libGreeterPlugin.so")
    }
}
