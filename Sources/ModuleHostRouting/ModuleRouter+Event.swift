import ModuleHost

extension ModuleRouter {
    /// What a router reports as links open, through ``ModuleRouter/events()``.
    ///
    /// A later version may report more kinds of event, so a `switch` over one from outside this package needs an
    /// `@unknown default:`.
    @nonexhaustive
    public enum Event: Sendable {
        /// The route's module passed the link, and its target is about to run.
        case willOpen(RouteRequest)
        /// The route's target ran; `succeeded` is false when it threw.
        case didOpen(RouteRequest, succeeded: Bool)
        /// The link did not open: it was invalid, refused, rejected, redirected in a loop, or its module failed.
        case refused(RouteError)
    }
}
