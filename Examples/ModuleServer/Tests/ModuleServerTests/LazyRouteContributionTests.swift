import Foundation
import GreetingModule
import ModuleHost
import ServerInterface
import StatusModule
import Synchronization
import Testing

/// Counts its instances: a module in the manifest that contributes no route.
final class SilentModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "example.silent"
    static let made = Mutex(0)
    init(context: any ModuleContext) { Self.made.withLock { $0 += 1 } }
}

/// A module that names the HTTP routes point with the wrong value type.
final class MistypedModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "example.mistyped"
    static let contributions: [Contribution] = [Contribution(to: ExtensionPoint<String>("server.http-routes"), "GET /")]
    init(context: any ModuleContext) {}
}

@Suite("Route contributions")
struct LazyRouteContributionTests {
    /// Building the router enumerates the point's contributions; a manifest module that contributes
    /// no route is not instantiated, and the contributors are, in manifest order.
    @Test func aModuleThatContributesNoRouteIsNotInstantiatedWhenTheRouterIsBuilt() throws {
        let manager = ModuleManager(typeResolver: .types([GreetingModule.self, StatusModule.self, SilentModule.self]))
        manager.declare(.httpRoutes)
        let manifest = try Self.manifest(#"""
            {"version": 1, "modules": [{"type": "ModuleServerTests.SilentModule"},
              {"type": "GreetingModule.GreetingModule", "config": {"greeting": "Hi"}}, {"type": "StatusModule.StatusModule"}]}
            """#)
        defer { try? FileManager.default.removeItem(at: manifest) }
        try manager.registerModules(withConfigFilePath: manifest)
        #expect(manager.extensions(of: .httpRoutes).map(\.module) == [.greeting, .status])
        #expect(!manager.modules.contains { $0.state == .loaded }, "enumerating instantiates nothing")

        _ = try manager.makeRouter()
        let loaded = Set(manager.modules.filter { $0.state == .loaded }.map(\.identifier))
        #expect(loaded == [.greeting, .status])
        #expect(SilentModule.made.withLock { $0 } == 0, "the module that contributes nothing was instantiated")
    }

    /// A contribution to the routes point with another value type is refused by validation, naming the module.
    @Test func aMistypedContributionIsALocatedError() throws {
        let manager = ModuleManager(typeResolver: .types([MistypedModule.self]))
        manager.declare(.httpRoutes)
        let manifest = try Self.manifest(#"{"version": 1, "modules": ["ModuleServerTests.MistypedModule"]}"#)
        defer { try? FileManager.default.removeItem(at: manifest) }
        let diagnostics = manager.validateManifest(at: manifest)
        let mismatch = try #require(diagnostics.first { $0.code == .contributionTypeMismatch })
        #expect(mismatch.path == "modules[0].type")
        #expect(mismatch.message.contains("ModuleServerTests.MistypedModule"))
    }

    private static func manifest(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("route-contributions-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        return url
    }
}
