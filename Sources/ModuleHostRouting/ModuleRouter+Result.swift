import ModuleHost

extension ModuleRouter {
    /// What opening a link gave: the route that ran, the link it ran for, the redirects on the way, and its output.
    public struct Result: Sendable {
        /// The route that ran.
        public let route: RouteDescription
        /// The link it ran for (after redirects), in full.
        public let url: String
        /// The links that redirected to it, first first.
        public let redirects: [String]
        /// What the target returned.
        public let output: ModuleCommand.Output
    }
}
