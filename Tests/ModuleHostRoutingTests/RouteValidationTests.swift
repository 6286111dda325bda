import Foundation
import Testing
@testable import ModuleHost
@testable import ModuleHostRouting
import TestSupport
import ModuleHostTesting

@Suite("Route validation")
struct RouteValidationTests {
    private func diagnostics(_ manifest: String, in manager: ModuleManager = ModuleManager()) -> [ManifestDiagnostic] {
        manager.validateManifest(Data(manifest.utf8), file: "routes.json")
    }

    /// Routes are this library's point: a host that never declares it still gets every route checked, and a host
    /// cannot take the point's name for a point of its own.
    @Test func theRoutesPointNeedsNoDeclarationAndItsNameIsNotAHosts() throws {
        let manager = ModuleManager()
        #expect(!manager.declare(ExtensionPoint<Int>("modulehost.routes")))
        #expect(!manager.declare(ExtensionPoint<String>("modulehost.anything")))
        #expect(manager.declare(ModuleRoute.point))
        let found = diagnostics(#"{"modules": ["ModuleHostRoutingTests.RouteInvalidModule"]}"#)
        #expect(found.contains { $0.code == .invalidRoute }, "\(found)")
        #expect(!found.contains { $0.code == .unknownExtensionPoint }, "\(found)")
    }

    /// Found by an outside review of the routes' move out of ModuleHost: overrides were matched by contribution
    /// key, so a route contributed without its identifier as key could not be overridden, and a key that differs
    /// let an override pass validation and change nothing.
    @Test func overridesNameRoutesByIdentifierWhateverTheirContributionsKey() async throws {
        let named = #"{"modules": [{"type": "ModuleHostRoutingTests.RouteKeyedModule", "routes": {"keyed.none": {"enabled": false}, "keyed.other": {"external": true}}}]}"#
        #expect(diagnostics(named).isEmpty, "\(diagnostics(named))")
        let manager = ModuleManager()
        try manager.registerModules(from: Data(named.utf8))
        #expect(manager.router.routes.map(\.identifier) == ["keyed.other"])
        #expect(manager.router.routes.first?.isExternal == true)
        let byKey = diagnostics(#"{"modules": [{"type": "ModuleHostRoutingTests.RouteKeyedModule", "routes": {"another-key": {"enabled": false}}}]}"#)
        #expect(byKey.contains { $0.code == .unknownRoute && $0.path == "modules[0].routes.another-key" }, "\(byKey)")
    }

    /// Found by the same review: a contribution to a look-alike of the routes point (its name and type, without its
    /// check) was accepted after a real route and served; it is a point nobody declared. And a module that contributes
    /// itself to the routes point, which takes values, was silently never served.
    @Test func aLookAlikeOfTheRoutesPointOrAModuleContributedAsARouteIsAnError() {
        let lookAlike = diagnostics(#"{"modules": ["ModuleHostRoutingTests.RouteLookAlikeModule"]}"#)
        #expect(lookAlike.contains { $0.code == .unknownExtensionPoint }, "\(lookAlike)")
        let asModule = diagnostics(#"{"modules": ["ModuleHostRoutingTests.RouteAsModuleModule"]}"#)
        #expect(asModule.contains { $0.code == .invalidContribution && $0.message.contains("takes values") }, "\(asModule)")
    }

    /// Found by the same review (already so before the move): two registrations validated at the
    /// same moment each passed the clash check against what was registered, and both routes for the same links were
    /// added; the router then served one and silently shadowed the other. Adding reruns the routes point's check
    /// under the registry's lock, so exactly one of them registers, and the other is told why.
    @Test func twoClashingRoutesRegisteredAtOnceCannotBothBeAdded() async {
        for _ in 0..<50 {
            let manager = ModuleManager()
            let results = await withTaskGroup(of: ManifestError?.self) { group in
                group.addTask { do throws(ManifestError) { try manager.register(RouteAlphaModule.self); return nil } catch { return error } }
                group.addTask { do throws(ManifestError) { try manager.register(RouteClashModule.self); return nil } catch { return error } }
                return await group.reduce(into: [ManifestError?]()) { $0.append($1) }
            }
            let failures = results.compactMap { $0 }
            #expect(failures.count == 1, "\(failures)")
            #expect(failures.first?.diagnostics.contains { $0.code == .duplicateRoute } == true, "\(failures)")
            #expect(manager.modules.count == 1)
        }
    }

    @Test func aClashBetweenTwoModulesIsALocatedErrorNamingBoth() throws {
        let manifest = """
        {"modules": [
          "ModuleHostRoutingTests.RouteAlphaModule",
          "ModuleHostRoutingTests.RouteClashModule"
        ]}
        """
        let found = diagnostics(manifest).filter { $0.code == .duplicateRoute }
        let clash = try #require(found.first)
        #expect(found.count == 1)
        #expect(clash.severity == .error)
        #expect(clash.path == "modules[1].type")
        #expect(clash.location?.line == 3)
        #expect(clash.message.contains(#"the route "clash.item" (/alpha/items/:other) of ModuleHostRoutingTests.RouteClashModule (modules[1])"#))
        #expect(clash.message.contains(#"the route "alpha.item" (/alpha/items/:id) of ModuleHostRoutingTests.RouteAlphaModule (modules[0])"#))
        #expect(clash.description.hasPrefix("routes.json:3:"))
    }

    @Test func disablingOneSideResolvesTheClash() async throws {
        let manifest = """
        {"modules": ["ModuleHostRoutingTests.RouteAlphaModule",
          {"type": "ModuleHostRoutingTests.RouteClashModule", "routes": {"clash.item": {"enabled": false}}}]}
        """
        #expect(diagnostics(manifest).isEmpty)
        let manager = ModuleManager()
        try manager.registerModules(from: Data(manifest.utf8))
        #expect(try await manager.router.open("/clash/fine").output.text == "fine")
    }

    @Test func aClashWithAnEarlierManifestOrACodeRegistrationIsReported() throws {
        let manager = ModuleManager()
        try manager.registerModules(from: Data(#"{"modules": ["ModuleHostRoutingTests.RouteAlphaModule"]}"#.utf8), file: "first.json")
        let later = diagnostics(#"{"modules": ["ModuleHostRoutingTests.RouteClashModule"]}"#, in: manager)
        #expect(later.contains { $0.code == .duplicateRoute && $0.message.contains("first.json: modules[0]") })
        #expect(throws: ManifestError.self) { try manager.register(RouteClashModule.self) }
    }

    @Test func invalidRoutesAreReportedEachWithWhy() {
        let found = diagnostics(#"{"modules": ["ModuleHostRoutingTests.RouteInvalidModule"]}"#)
        let messages = found.map(\.message)
        #expect(found.filter { $0.code == .invalidRoute }.count == 4, "\(messages)")
        #expect(messages.contains { $0.contains(#""invalid.slash" with the pattern "invalid/no-slash""#) && $0.contains("starts with \"/\"") })
        #expect(messages.contains { $0.contains("declares the parameter \"b\", which its pattern does not have") })
        #expect(messages.contains { $0.contains("the parameter \":a\" appears twice") })
        #expect(messages.contains { $0.contains("is not valid: a route identifier") })
        #expect(found.contains { $0.code == .duplicateRoute && $0.message.contains(#"declares the route "invalid.twice" twice"#) })
    }

    @Test func anOverrideNamingNoRouteIsALocatedErrorWithASuggestion() throws {
        let manifest = """
        {"modules": [{"type": "ModuleHostRoutingTests.RouteAlphaModule",
          "routes": {"alpha.itme": {"external": true}}}]}
        """
        let found = diagnostics(manifest)
        let unknown = try #require(found.first { $0.code == .unknownRoute })
        #expect(unknown.path == "modules[0].routes.alpha.itme")
        #expect(unknown.location?.line == 2)
        #expect(unknown.message.contains(#"has no route "alpha.itme""#))
        #expect(unknown.suggestion == #"did you mean "alpha.item"?"#)
    }

    @Test func anExternalSchemeThatIsTheInAppOneIsALocatedError() throws {
        let manifest = """
        {"routing": {"scheme": "shop",
                     "externalSchemes": ["shop-ext", "shop"]},
         "modules": []}
        """
        let found = diagnostics(manifest)
        let same = try #require(found.first { $0.code == .invalidRouting })
        #expect(same.path == "routing.externalSchemes[1]")
        #expect(same.location?.line == 2)
        #expect(same.message.contains("is also the in-app scheme"))
    }

    @Test(arguments: [
        (#"{"routing": "app", "modules": []}"#, "routing"),
        (#"{"routing": {"scheme": "Shop1"}, "modules": []}"#, "routing.scheme"),
        (#"{"routing": {"scheme": "1shop"}, "modules": []}"#, "routing.scheme"),
        (#"{"routing": {"host": "a b"}, "modules": []}"#, "routing.host"),
        (#"{"routing": {"externalSchemes": "shop"}, "modules": []}"#, "routing.externalSchemes"),
        (#"{"routing": {"hots": "app"}, "modules": []}"#, "routing.hots"),
        (#"{"modules": [{"type": "ModuleHostRoutingTests.RouteAlphaModule", "routes": []}]}"#, "modules[0].routes"),
        (#"{"modules": [{"type": "ModuleHostRoutingTests.RouteAlphaModule", "routes": {"alpha.item": {"external": "yes"}}}]}"#, "modules[0].routes.alpha.item.external"),
        (#"{"modules": [{"type": "ModuleHostRoutingTests.RouteAlphaModule", "routes": {"alpha.item": {"extrenal": true}}}]}"#, "modules[0].routes.alpha.item.extrenal"),
    ])
    func routingFieldsOfTheWrongShapeAreLocated(manifest: String, path: String) {
        let found = diagnostics(manifest)
        #expect(found.contains { $0.severity == .error && $0.path == path }, "\(found.map(\.description))")
    }

    @Test func aSecondManifestWithOtherRoutingSettingsIsRefused() throws {
        let manager = ModuleManager()
        try manager.registerModules(from: Data(#"{"routing": {"host": "one"}, "modules": []}"#.utf8), file: "first.json")
        let found = diagnostics(#"{"routing": {"host": "two"}, "modules": []}"#, in: manager)
        #expect(found.contains { $0.code == .invalidRouting && $0.message.contains("first.json") })
        #expect(diagnostics(#"{"routing": {"host": "one"}, "modules": []}"#, in: manager).allSatisfy { $0.code != .invalidRouting })
    }
}

@Suite("Diagnostics from manifest keys")
struct DiagnosticEscapingTests {
    @Test(arguments: ["routes", "operations"])
    func aTerminalEscapeInAKeyIsPrintedEscaped(field: String) throws {
        let override = field == "routes" ? #"{"external": true}"# : #"{"priority": "low"}"#
        let manifest = #"{"modules": [{"type": "ModuleHostRoutingTests.RouteAlphaModule", "\#(field)": {"a\u001b[31m\u202Ered": \#(override)}}]}"#
        let found = ModuleManager().validateManifest(Data(manifest.utf8), file: "evil.json")
        let diagnostic = try #require(found.first { $0.code == .unknownRoute || $0.code == .unknownOperation })
        #expect(diagnostic.path.contains("\u{1b}"), "the path itself keeps the key, for code")
        #expect(!diagnostic.description.contains("\u{1b}"))
        #expect(!diagnostic.description.contains("\u{202E}"))
        #expect(diagnostic.description.contains(#"a\u{1b}[31m\u{202e}red"#), "\(diagnostic.description)")
    }
}

@Suite("Router findings from the attack review")
struct RouterAttackRegressionTests {
    @Test func anInAppSchemeThatIsTheDefaultExternalOneIsALocatedError() throws {
        let found = ModuleManager().validateManifest(Data(#"{"routing": {"scheme": "modulehost"}, "modules": []}"#.utf8))
        let error = try #require(found.first { $0.code == .invalidRouting })
        #expect(error.path == "routing.scheme")
        #expect(error.message.contains("also the default external scheme"))
    }

    @Test func aLongUnknownLinkGetsNoSuggestionSoItsCostStaysLinear() async throws {
        let manager = ModuleManager()
        try manager.registerModules(from: Data(#"{"modules": ["ModuleHostRoutingTests.RouteAlphaModule"]}"#.utf8))
        let long = String(repeating: "a", count: 1_900)
        do {
            _ = try await manager.router.open("modulehost://app/alpha/echo/\(long)/x", from: .external)
            Issue.record("an unknown path opened")
        } catch {
            #expect(error.code == .routeNotFound)
            #expect(error.suggestion == nil)
        }
        // A short one still gets its hint.
        let short = try await #require(failure("modulehost://app/alpha/itemz/3", manager))
        #expect(short.suggestion == "/alpha/items/:id")
    }

    @Test func aTooLongLinksErrorHoldsABoundedEscapedStart() async throws {
        let manager = ModuleManager()
        try manager.registerModules(from: Data(#"{"modules": ["ModuleHostRoutingTests.RouteAlphaModule"]}"#.utf8))
        let hostile = "\u{1B}[2J" + "a" + String(repeating: "\u{301}", count: 20_000)
        let error = try #require(await failure(hostile, manager))
        #expect(error.code == .urlTooLong)
        #expect(error.url.utf8.count <= 512)
        #expect(!error.url.contains("\u{1B}"))
    }

    private func failure(_ url: String, _ manager: ModuleManager) async -> RouteError? {
        do {
            _ = try await manager.router.open(url, from: .external)
            return nil
        } catch {
            return error
        }
    }
}
