/// A manifest's change to one of a module's routes, without changing its code:
/// `"routes": {"numbers.fact": {"external": false}, "numbers.history": {"enabled": false}}`.
package struct RouteOverride: Sendable, Hashable {
    /// The name of the point routes are contributed to (ModuleHostRouting's `ModuleRoute.point`), whose
    /// contributions' keys (route identifiers) the overrides name.
    package static let pointName = "modulehost.routes"

    /// Whether other programs may open the route, instead of what the code declares.
    package var external: Bool?
    /// `false` leaves the route out of the app.
    package var enabled: Bool?
    /// Where the override stands in its file.
    package var location: ManifestDiagnostic.Location?
}
