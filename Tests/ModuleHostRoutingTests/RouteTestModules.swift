import Foundation
import ModuleHost
@testable import ModuleHostRouting
import TestSupport
import ModuleHostTesting

struct RouteExplosion: Error, CustomStringConvertible {
    var description: String { "the route exploded" }
}

/// Routes that exercise every decision, the external rule, parameters and redirects. Its handler and targets
/// record into the `LoadRecorder` each test injects.
final class RouteAlphaModule: ModuleRouteHandler {
    static let moduleIdentifier: ModuleIdentifier = "test.routes.alpha"
    static var contributions: [Contribution] { routes.map(Contribution.route) }
    static let routes: [ModuleRoute] = [
        ModuleRoute("alpha.item", pattern: "/alpha/items/:id", parameters: [.integer("id", in: 1...100)],
                    query: [.oneOf("format", ["short", "long"], required: false)],
                    isAccessibleExternally: true, summary: "an item") { request in
            record(request, "target alpha.item")
            let id = request.parameters.integer("id") ?? -1
            return .text("item \(id) \(request.parameters.text("format") ?? "plain")", value: id)
        },
        ModuleRoute("alpha.latest", pattern: "/alpha/items/latest", summary: "the latest item") { _ in .text("latest") },
        ModuleRoute("alpha.private", pattern: "/alpha/private", summary: "in-app only") { _ in .text("private") },
        ModuleRoute("alpha.echo", pattern: "/alpha/echo/:word", isAccessibleExternally: true, summary: "echoes") { request in
            .text(request.parameters.text("word") ?? "")
        },
        ModuleRoute("alpha.search", pattern: "/alpha/search", query: [.text("q", maxLength: 8)], summary: "needs q") { request in
            .text("search \(request.parameters.text("q") ?? "")")
        },
        ModuleRoute("alpha.loop", pattern: "/alpha/loop/:side", isAccessibleExternally: true, summary: "redirects a <-> b") { _ in .text("") },
        ModuleRoute("alpha.chain", pattern: "/alpha/chain/:n", parameters: [.integer("n")], summary: "redirects to n+1") { _ in .text("") },
        ModuleRoute("alpha.lucky", pattern: "/alpha/lucky", isAccessibleExternally: true, summary: "redirects to item 7") { _ in .text("") },
        ModuleRoute("alpha.sneaky", pattern: "/alpha/sneaky", isAccessibleExternally: true, summary: "redirects to the private route") { _ in .text("") },
        ModuleRoute("alpha.closed", pattern: "/alpha/closed", isAccessibleExternally: true, summary: "always rejected") { _ in .text("") },
        ModuleRoute("alpha.fails", pattern: "/alpha/fails", summary: "throws") { _ in throw RouteExplosion() },
    ]

    init(context: any ModuleContext) {}

    func moduleDidLoad(with manager: any ModuleContext) throws {
        (try? manager.bridge.resolve(LoadRecorder.self))?.record("load alpha")
    }

    func decision(for request: RouteRequest) async -> RouteRequest.Decision {
        Self.record(request, "decide \(request.route)")
        switch request.route {
        case "alpha.loop": return .redirect(to: request.parameters.text("side") == "a" ? "/alpha/loop/b" : "/alpha/loop/a")
        case "alpha.chain": return .redirect(to: "/alpha/chain/\((request.parameters.integer("n") ?? 0) + 1)")
        case "alpha.lucky": return .redirect(to: "modulehost://app/alpha/items/7")
        case "alpha.sneaky": return .redirect(to: "/alpha/private")
        case "alpha.closed": return .reject(reason: "closed for tests")
        default: return .pass
        }
    }

    private static func record(_ request: RouteRequest, _ event: String) {
        (try? request.manager.bridge.resolve(LoadRecorder.self))?.record(event)
    }
}

/// A route with the same shape as `alpha.item`, under another parameter name.
final class RouteClashModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.routes.clash"
    static var contributions: [Contribution] { routes.map(Contribution.route) }
    static let routes: [ModuleRoute] = [
        ModuleRoute("clash.item", pattern: "/alpha/items/:other", summary: "clashes") { _ in .text("") },
        ModuleRoute("clash.fine", pattern: "/clash/fine", summary: "fine") { _ in .text("fine") },
    ]
    init(context: any ModuleContext) {}
}

/// Routes that are not valid.
final class RouteInvalidModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.routes.invalid"
    static var contributions: [Contribution] { routes.map(Contribution.route) }
    static let routes: [ModuleRoute] = [
        ModuleRoute("invalid.slash", pattern: "invalid/no-slash", summary: "") { _ in .text("") },
        ModuleRoute("invalid.undeclared", pattern: "/invalid/:a", parameters: [.integer("b")], summary: "") { _ in .text("") },
        ModuleRoute("invalid.twice", pattern: "/invalid/:a/:a", summary: "") { _ in .text("") },
        ModuleRoute("invalid.twice", pattern: "/invalid/again", summary: "") { _ in .text("") },
        ModuleRoute("invalid id", pattern: "/invalid/id", summary: "") { _ in .text("") },
    ]
    init(context: any ModuleContext) {}
}

struct RouteLoadFailure: Error, CustomStringConvertible {
    var description: String { "cannot load for tests" }
}

/// A module with a route whose loading fails.
final class RouteFailingLoadModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.routes.failing"
    static var contributions: [Contribution] { routes.map(Contribution.route) }
    static let routes: [ModuleRoute] = [
        ModuleRoute("failing.page", pattern: "/failing/page", isAccessibleExternally: true, summary: "") { _ in .text("never") },
    ]
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { throw RouteLoadFailure() }
}

/// Routes contributed with the general initializer: one without a key, one whose key is not its identifier. The
/// manifest's overrides name routes by identifier, as the router applies them.
final class RouteKeyedModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.routes.keyed"
    static let contributions: [Contribution] = [
        Contribution(to: ModuleRoute.point, ModuleRoute("keyed.none", pattern: "/keyed/none", summary: "") { _ in .text("none") }),
        Contribution(to: ModuleRoute.point, ModuleRoute("keyed.other", pattern: "/keyed/other", summary: "") { _ in .text("other") },
                     key: "another-key"),
    ]
    init(context: any ModuleContext) {}
}

/// A route contributed to a look-alike of the routes point (same name and type, no check), after a real one.
final class RouteLookAlikeModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.routes.look-alike"
    static let contributions: [Contribution] = [
        .route(ModuleRoute("look.real", pattern: "/look/real", summary: "") { _ in .text("") }),
        Contribution(to: ExtensionPoint<ModuleRoute>("modulehost.routes"),
                     ModuleRoute("look.alike", pattern: "no-slash", summary: "") { _ in .text("") }),
    ]
    init(context: any ModuleContext) {}
}

/// A module that contributes itself, as a route, to the routes point (which takes values).
final class RouteAsModuleModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.routes.as-module"
    static let contributions: [Contribution] = [
        .module(RouteAsModuleModule.self, to: ModuleRoute.point) { _ in
            ModuleRoute("as.module", pattern: "no-slash", summary: "") { _ in .text("") }
        },
    ]
    init(context: any ModuleContext) {}
}
