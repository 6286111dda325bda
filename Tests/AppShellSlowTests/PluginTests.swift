import Foundation
import ModuleHost
import Testing
import TestSupport

@Suite("Plugins", .enabled(if: SlowLane.isRequested, SlowLane.reason), .timeLimit(.minutes(20)))
struct PluginTests: PluginSuite {
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
}
