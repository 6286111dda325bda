import Foundation
import TestSupport
import Testing

/// A plugin module uses ModuleHostState's types as a linked module does, taking them from the host: the shell's
/// `HostEnvironment` resolves in the plugin (the same type, not a copy that would make it "not provided"), and a
/// state file opened through it works. Written when state files moved out of ModuleHost into their own library,
/// so that the library's promise to plugins is proven end to end.
@Suite("Plugins using ModuleHostState", .enabled(if: SlowLane.isRequested, SlowLane.reason), .timeLimit(.minutes(20)))
struct PluginStateTests {
    @Test func aPluginModuleResolvesTheShellsHostEnvironmentAndKeepsAFile() async throws {
        let library = try await PluginBuild.buildCopy(named: "state-plugin") { text in
            text.replacingOccurrences(of: "import ModuleHost\n", with: "import Foundation\nimport ModuleHost\nimport ModuleHostState\n")
                .replacingOccurrences(of: "    ]\n\n    /// Creates the module.", with: #"""
                        .command(ModuleCommand("keep", summary: "writes a state file through the host's environment") { context in
                            guard let environment = try context.manager.bridge.resolveIfProvided(HostEnvironment.self) else {
                                return .text("no host environment")
                            }
                            let module = try context.manager.bridge.resolve("com.example.greeter", as: GreeterModule.self)
                            let file = try environment.stateFile("kept.txt", of: module.context)
                            try file.write(Data(context.arguments.joined(separator: " ").utf8))
                            return .text("kept in \(environment.stateDirectory.path)")
                        }),
                    ]

                    /// Creates the module.
                """#)
                .replacingOccurrences(of: "    public init(context: any ModuleContext) {}\n", with: """
                    let context: any ModuleContext
                    public init(context: any ModuleContext) { self.context = context }

                """)
        }
        let workspace = try PluginBuild.workspace(withGreeter: library)
        let state = workspace.url.appendingPathComponent("state")
        let result = try await workspace.run(["--state-dir", state.path], input: "keep hello plugin\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("kept in \(state.path)"), "\(result.stdout)\n\(result.stderr)")
        let kept = try FileManager.default.subpathsOfDirectory(atPath: state.path).filter { $0.hasSuffix("kept.txt") }
        #expect(kept.count == 1, "\(kept)")
        let text = try kept.first.map { try String(contentsOf: state.appendingPathComponent($0), encoding: .utf8) }
        #expect(text == "hello plugin")
    }
}
