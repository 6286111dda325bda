/// A route as registered: its declaration, parsed, with the manifest's overrides applied.
package struct RegisteredRoute: Sendable {
    package let route: ModuleRoute
    package let pattern: RoutePattern
    /// Whether other programs may open it, after the manifest's override.
    package let isExternal: Bool
    package let module: ModuleIdentifier
    /// The module's type name, for messages.
    package let typeName: String

    /// The enabled ones of `routes`, which `type` declares, with `overrides` applied; declarations that do not
    /// parse are left out (validation reports them).
    static func routes(_ routes: [ModuleRoute], of type: any ModuleProtocol.Type, typeName: String,
                       overrides: [String: RouteOverride]) -> [RegisteredRoute] {
        routes.compactMap { route in
            let override = overrides[route.identifier]
            guard override?.enabled ?? true, case .success(let pattern) = route.parsedPattern() else { return nil }
            return RegisteredRoute(route: route, pattern: pattern,
                                   isExternal: override?.external ?? route.isAccessibleExternally,
                                   module: type.moduleIdentifier, typeName: typeName)
        }
    }
}
