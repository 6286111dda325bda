import Foundation
import Testing
@testable import ModuleHost
@testable import ModuleHostRouting
import TestSupport
import ModuleHostTesting

/// The manifest makes routes external or disables them, and names the app's schemes and host.
@Suite("Router: the manifest", .timeLimit(.minutes(5)))
struct RouterManifestTests: RouterSuite {
    @Test func theManifestMakesRoutesExternalOrDisablesThem() async throws {
        let manager = try manager(entries: #"{"type": "ModuleHostRoutingTests.RouteAlphaModule", "routes": {"alpha.private": {"external": true}, "alpha.item": {"enabled": false}}}"#)
        #expect(try await manager.router.open("modulehost://app/alpha/private", from: .external).output.text == "private")
        #expect(await failure("/alpha/items/3", in: manager)?.code == .routeNotFound)
        #expect(manager.router.routes.first { $0.identifier == "alpha.private" }?.isExternal == true)
        #expect(!manager.router.routes.contains { $0.identifier == "alpha.item" })
    }

    @Test func theManifestNamesTheSchemesAndHost() async throws {
        let manager = try manager(extra: #""routing": {"scheme": "shop-app", "externalSchemes": ["shop", "shop-legacy"], "host": "store"}, "#)
        #expect(manager.router.settings.scheme == "shop-app")
        #expect(try await manager.router.open("shop-legacy://store/alpha/items/1", from: .external).output.text == "item 1 plain")
        #expect(try await manager.router.open("shop-app://store/alpha/items/1").output.text == "item 1 plain")
        #expect(await failure("modulehost://app/alpha/items/1", from: .external, in: manager)?.code == .wrongScheme)
        #expect(await failure("shop://app/alpha/items/1", from: .external, in: manager)?.code == .wrongHost)
    }

    @Test func routesListTheirParameters() throws {
        let manager = try manager()
        let item = try #require(manager.router.routes.first { $0.identifier == "alpha.item" })
        #expect(item.pattern == "/alpha/items/:id")
        #expect(item.isExternal)
        #expect(item.parameters == ["id: an integer in 1...100", "?format: one of \"short\", \"long\" (optional)"])
        let data = try JSONEncoder().encode(item)
        #expect(try JSONDecoder().decode(RouteDescription.self, from: data) == item)
    }
}
