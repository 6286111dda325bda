import Foundation
import TestSupport
import Testing

/// A plugin module guards its routes with ModuleHostRouting's `ModuleRouteHandler`, a type it takes from the host as a
/// linked module does: the shell's router asks the plugin's handler, which passes one link and rejects another.
/// Written when the router moved out of ModuleHost into its own library, so that the library's promise to
/// plugins is proven end to end.
@Suite("Plugins using ModuleHostRouting", .enabled(if: SlowLane.isRequested, SlowLane.reason), .timeLimit(.minutes(20)))
struct PluginRoutingTests {
    @Test func aPluginModuleGuardsItsRoutesThroughTheShellsRouter() async throws {
        let library = try await PluginBuild.buildCopy(named: "routing-plugin") { text in
            text + """

                extension GreeterModule: ModuleRouteHandler {
                    public func decision(for request: RouteRequest) async -> RouteRequest.Decision {
                        request.parameters.text("name") == "nobody" ? .reject(reason: "the plugin greets somebody") : .pass
                    }
                }

                """
        }
        let workspace = try PluginBuild.workspace(withGreeter: library)

        let passed = try await workspace.run(["open", "modulehost://app/greeter/hello/ann"])
        #expect(passed.status == 0, "\(passed.stderr)")
        #expect(passed.stdout.contains("Hello, ann, from a plugin!"), "\(passed.stdout)\n\(passed.stderr)")

        let rejected = try await workspace.run(["open", "modulehost://app/greeter/hello/nobody"])
        #expect(rejected.status == 77, "\(rejected.stdout)\n\(rejected.stderr)")
        #expect(rejected.stderr.contains("the plugin greets somebody"), "\(rejected.stderr)")
    }
}
