import ModuleHost

extension ModuleRouter {
    /// What a router reports as links open, through ``ModuleRouter/events()``.
    public enum Event: Sendable {
        /// The route's module passed the link, and its target is about to run.
        case willOpen(RouteRequest)
        /// The route's target ran; `succeeded` is false when it threw.
        case didOpen(RouteRequest, succeeded: Bool)
        /// The link did not open: it was invalid, refused, rejected, redirected in a loop, or its module failed.
        case refused(RouteError)
    }
}
