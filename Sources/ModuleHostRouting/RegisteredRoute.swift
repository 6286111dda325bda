import ModuleHost

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
    static func routes(of registration: ModuleRegistration) -> [RegisteredRoute] {
        let routes = Contribution.values(of: registration.contributions, for: ModuleRoute.point)
        let type = registration.type, typeName = registration.typeName
        return routes.compactMap { route in
            let override = registration.routeOverrides[route.identifier]
            guard override?.enabled ?? true, case .success(let pattern) = route.parsedPattern() else { return nil }
            return RegisteredRoute(route: route, pattern: pattern,
                                   isExternal: override?.external ?? route.isAccessibleExternally,
                                   module: type.moduleIdentifier, typeName: typeName)
        }
    }
}
