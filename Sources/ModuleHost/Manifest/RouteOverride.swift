/// A manifest's change to one of a module's routes, without changing its code:
/// `"routes": {"numbers.fact": {"external": false}, "numbers.history": {"enabled": false}}`.
struct RouteOverride: Sendable, Hashable {
    /// Whether other programs may open the route, instead of what the code declares.
    var external: Bool?
    /// `false` leaves the route out of the app.
    var enabled: Bool?
    /// Where the override stands in its file.
    var location: ManifestDiagnostic.Location?
}
