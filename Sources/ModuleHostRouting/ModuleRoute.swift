import ModuleHost

/// One route a module offers: a path pattern with typed parameters, bound to an action of the module.
///
/// Links have the form `<scheme>://<host>/<path>?<query>`, such as `modulehost://app/numbers/fact/28`. A pattern is
/// the path: literal segments and parameters (`:n`), such as `/numbers/fact/:n`; by convention its first segment
/// names the module. When two patterns could match the same path, a literal segment wins over a parameter at the
/// first place they differ; two patterns alike but for their parameters' names are a validation error.
///
/// Only a route created with `isAccessibleExternally: true` (or made external in the manifest) opens from another
/// program.
public struct ModuleRoute: Sendable {
    /// The route's identifier, unique within its module, such as `numbers.fact`; the manifest names routes by it.
    package let identifier: String
    /// The path pattern, such as `/numbers/fact/:n`.
    package let pattern: String
    /// The types of the path parameters; a parameter of the pattern not listed here is text.
    package let parameters: [Parameter]
    /// The query items the route reads; any other query item is refused.
    package let query: [Parameter]
    /// Whether another program may open the route (the seed's `isAccessibleExternally`); the manifest may change it.
    package let isAccessibleExternally: Bool
    /// One line on what the route shows or does.
    package let summary: String
    /// Runs the route.
    package let target: @Sendable (_ request: RouteRequest) async throws -> ModuleCommand.Output

    /// Declares a route; it is in-app only unless `isAccessibleExternally`.
    ///
    /// - Parameters:
    ///   - identifier: The route's name, unique among the modules' routes.
    ///   - pattern: Its path, such as `/numbers/fact/:n`.
    ///   - parameters: The pattern's parameters.
    ///   - query: The query items it takes.
    ///   - isAccessibleExternally: Whether links from outside the app may open it.
    ///   - summary: One line on what it shows or does.
    ///   - target: What it runs, given the request.
    public init(_ identifier: String, pattern: String, parameters: [Parameter] = [], query: [Parameter] = [],
                isAccessibleExternally: Bool = false, summary: String,
                target: @escaping @Sendable (_ request: RouteRequest) async throws -> ModuleCommand.Output) {
        self.identifier = identifier
        self.pattern = pattern
        self.parameters = parameters
        self.query = query
        self.isAccessibleExternally = isAccessibleExternally
        self.summary = summary
        self.target = target
    }
}
