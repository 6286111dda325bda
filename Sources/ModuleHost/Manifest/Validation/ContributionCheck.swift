/// How a library built on ModuleHost checks the contributions to a point it declares, when a manifest is validated
/// (ModuleHostRouting's routes: their patterns, and clashes between them).
///
/// A point made with one (`ExtensionPoint.init(_:requiresUniqueKeys:check:)`) needs no declaration by the host.
/// Validation runs the check once per manifest that has a contribution to the point, after the checks every
/// contribution gets (point, type, keys), with every entry of the manifest and the modules registered before it;
/// the check reports into the manifest's one diagnostic sink and stops when ``DiagnosticSink/isFull``.
package final class ContributionCheck: ExtensionPointCheck {
    /// The check itself.
    package typealias Body = @Sendable (_ entries: [ContributingEntry], _ registered: [ModuleRegistration],
                                        _ sink: inout DiagnosticSink) -> Void

    let body: Body

    /// A check that runs `body`.
    package init(_ body: @escaping Body) {
        self.body = body
    }
}

/// A manifest entry as a ``ContributionCheck`` sees it: where it is, and what its module contributes.
package struct ContributingEntry: Sendable {
    /// The type name the entry gives.
    package let typeName: String
    /// The entry's path in the manifest (`modules[2]`).
    package let path: String
    /// Where the entry starts in its file, when known.
    package let location: ManifestDiagnostic.Location?
    /// The entry's per-route overrides (`"routes": {…}`), keyed by route identifier.
    package let routeOverrides: [String: RouteOverride]
    /// Everything the module contributes, to any point.
    package let contributions: [Contribution]
}
