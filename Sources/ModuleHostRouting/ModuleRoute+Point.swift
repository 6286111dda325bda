import ModuleHost

extension ModuleRoute {
    /// The point modules contribute routes to; a route's key is its identifier, unique within its module. Routes
    /// clash by pattern, not by key: `validate` checks their patterns and clashes without a host declaring the
    /// point. Package-only: a module contributes with ``Contribution/route(_:)`` and a host lists the routes with
    /// ``ModuleRouter/routes``.
    package static let point = ExtensionPoint<ModuleRoute>(RouteOverride.pointName, check: ContributionCheck(RouteCheck.run))
}

extension Contribution {
    /// Contributes a route to the routes point, keyed by its identifier: the one way to declare a route.
    ///
    /// - Parameter route: The route.
    /// - Returns: The contribution, for the module's `contributions`.
    public static func route(_ route: ModuleRoute) -> Contribution {
        Contribution(to: ModuleRoute.point, route, key: route.identifier)
    }
}
