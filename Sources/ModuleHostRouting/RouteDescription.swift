import ModuleHost

/// A route as a host lists it: who offers it, its pattern and whether other programs may open it.
public struct RouteDescription: Sendable, Hashable, Codable {
    /// The route's identifier, such as `numbers.fact`.
    public let identifier: String
    /// The module that offers it.
    public let module: ModuleIdentifier
    /// Its path pattern, such as `/numbers/fact/:n`.
    public let pattern: String
    /// What it shows or does.
    public let summary: String
    /// Whether another program may open it (after the manifest's overrides).
    public let isExternal: Bool
    /// Its parameters and query items, each as `name: what it expects` (`n: an integer in 0...100`; `?limit` for a
    /// query item, with `(optional)` when it may be left out).
    public let parameters: [String]

    init(_ registered: RegisteredRoute) {
        identifier = registered.route.identifier
        module = registered.module
        pattern = registered.route.pattern
        summary = registered.route.summary
        isExternal = registered.isExternal
        let declared = Dictionary(registered.route.parameters.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let path = registered.pattern.parameterNames.map { "\($0): \(declared[$0]?.expected ?? ModuleRoute.Parameter.text($0).expected)" }
        let query = registered.route.query.map { "?\($0.name): \($0.expected)" + ($0.isRequired ? "" : " (optional)") }
        parameters = path + query
    }
}
