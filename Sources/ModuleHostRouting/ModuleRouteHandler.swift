import ModuleHost

/// A module that guards the routes it contributes (`ModuleRoute.point`): before each open of one of its routes
/// the router asks it whether to pass, reject or redirect.
///
/// ```swift
/// extension AuthModule: ModuleRouteHandler {
///     public func decision(for request: RouteRequest) async -> RouteRequest.Decision {
///         service.state.user == nil ? .reject(reason: "nobody is logged in") : .pass
///     }
/// }
/// ```
///
/// To watch routes open (any module's), read ``ModuleRouter/events()``: it reports each open before the target
/// runs and after it finished.
public protocol ModuleRouteHandler: ModuleProtocol {
    /// Whether `request` may open: pass, reject with a reason, or redirect to another link.
    ///
    /// - Parameter request: The link being opened, with its parameters and where it came from.
    /// - Returns: `.pass` to open it, `.reject(reason:)` to refuse it, or `.redirect(to:)` to open another link.
    func decision(for request: RouteRequest) async -> RouteRequest.Decision
}
