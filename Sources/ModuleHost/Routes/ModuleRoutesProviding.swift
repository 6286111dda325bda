/// A module that offers routes: links that other modules, the host and (for routes marked external) other programs
/// open through ``ModuleManager/router``, and that run an action of the module.
///
/// Routes are declared statically, like commands, so `validate` checks them and a host lists them without
/// instantiating anything; the module is instantiated when one of its routes first opens. Before each open the
/// router asks the module (its handler) whether to pass, reject or redirect, then tells it that the route will
/// open and that it did.
///
/// ```swift
/// extension ClockModule: ModuleRoutesProviding {
///     static let routes: [ModuleRoute] = [
///         ModuleRoute("clock.uptime", pattern: "/clock/uptime", isAccessibleExternally: true,
///                     summary: "how long the app has run") { request in
///             let clock = try request.manager.bridge.resolve(ClockService.self)
///             return .text("up \(clock.uptime())")
///         },
///     ]
/// }
/// ```
public protocol ModuleRoutesProviding: ModuleProtocol {
    /// The routes the module offers.
    static var routes: [ModuleRoute] { get }
    /// Whether `request` may open: pass (the default), reject with a reason, or redirect to another link.
    func decision(for request: RouteRequest) async -> RouteDecision
    /// Told right before the route's target runs.
    func routeWillOpen(_ request: RouteRequest) async
    /// Told right after the route's target ran; `succeeded` is false when it threw.
    func routeDidOpen(_ request: RouteRequest, succeeded: Bool) async
}

extension ModuleRoutesProviding {
    /// Passes every request.
    public func decision(for request: RouteRequest) async -> RouteDecision { .pass }
    /// Does nothing.
    public func routeWillOpen(_ request: RouteRequest) async {}
    /// Does nothing.
    public func routeDidOpen(_ request: RouteRequest, succeeded: Bool) async {}
}

extension ModuleRoutesProviding {
    /// ``routes``, for the host.
    public static var _declaredRoutes: [ModuleRoute] { routes }
}

/// Reads the routes a module type declares without instantiating it.
enum RouteDeclarations {
    static func routes(of type: any ModuleProtocol.Type) -> [ModuleRoute] {
        type._declaredRoutes
    }
}
