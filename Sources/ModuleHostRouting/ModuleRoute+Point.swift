import ModuleHost

extension ModuleRoute {
    /// The point modules contribute routes to; a route's key is its identifier, unique within its module. Routes
    /// clash by pattern, not by key: `validate` checks their patterns and clashes without a host declaring the
    /// point.
    public static let point = ExtensionPoint<ModuleRoute>(RouteOverride.pointName, check: ContributionCheck(RouteCheck.run))
}

extension Contribution {
    /// Contributes a route to ``ModuleRoute/point``, keyed by its identifier.
    public static func route(_ route: ModuleRoute) -> Contribution {
        Contribution(to: ModuleRoute.point, route, key: route.identifier)
    }
}
