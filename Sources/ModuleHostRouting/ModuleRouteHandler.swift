import ModuleHost

/// A module that guards the routes it contributes (`ModuleRoute.point`): before each open of one of its routes
/// the router asks it whether to pass, reject or redirect, then tells it that the route will open and that it did.
///
/// ```swift
/// extension AuthModule: ModuleRouteHandler {
///     public func decision(for request: RouteRequest) async -> RouteRequest.Decision {
///         service.state.user == nil ? .reject(reason: "nobody is logged in") : .pass
///     }
/// }
/// ```
public protocol ModuleRouteHandler: ModuleProtocol {
    /// Whether `request` may open: pass (the default), reject with a reason, or redirect to another link.
    func decision(for request: RouteRequest) async -> RouteRequest.Decision
    /// Told right before the route's target runs.
    func routeWillOpen(_ request: RouteRequest) async
    /// Told right after the route's target ran; `succeeded` is false when it threw.
    func routeDidOpen(_ request: RouteRequest, succeeded: Bool) async
}

extension ModuleRouteHandler {
    /// Passes every request.
    public func decision(for request: RouteRequest) async -> RouteRequest.Decision { .pass }
    /// Does nothing.
    public func routeWillOpen(_ request: RouteRequest) async {}
    /// Does nothing.
    public func routeDidOpen(_ request: RouteRequest, succeeded: Bool) async {}
}
