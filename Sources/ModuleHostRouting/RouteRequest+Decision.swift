import ModuleHost

extension RouteRequest {
    /// A module's answer when the router asks whether one of its routes may open
    /// (``ModuleRouteHandler/decision(for:)``).
    public enum Decision: Sendable, Hashable {
        /// Open the route.
        case pass
        /// Do not open it; the reason is shown to whoever opened the link.
        case reject(reason: String)
        /// Open this link instead (a full link, or an in-app path such as `/numbers/fact/7`). The redirected link keeps
        /// the original's source, so a link from outside can never be redirected to an in-app-only route; redirects
        /// are followed at most 8 times, and one that comes back to a link already opened is
        /// refused as a loop.
        case redirect(to: String)
    }
}
