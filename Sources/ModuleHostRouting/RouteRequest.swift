import ModuleHost

/// What a route's target and its module's handler get when a link opens: the link, the decoded parameters, where
/// the link came from, and the manager to resolve services through.
public struct RouteRequest: Sendable {
    /// The link being opened, in full (`modulehost-app://app/numbers/fact/28`).
    public let url: String
    /// The route's identifier, such as `numbers.fact`.
    public let route: String
    /// The module that declares the route.
    public let module: ModuleIdentifier
    /// The path parameters and query items, decoded.
    public let parameters: Parameters
    /// Where the link came from.
    public let source: Source
    /// The links that redirected to this one, first first; empty when none did.
    public let redirects: [String]
    /// The manager that loaded the module: resolve services through its bridge.
    public let manager: any ModuleContext

    package init(url: String, route: String, module: ModuleIdentifier, parameters: Parameters, source: Source,
         redirects: [String], manager: any ModuleContext) {
        self.url = url
        self.route = route
        self.module = module
        self.parameters = parameters
        self.source = source
        self.redirects = redirects
        self.manager = manager
    }
}
