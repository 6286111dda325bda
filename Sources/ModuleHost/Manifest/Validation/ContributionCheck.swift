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

extension ContributionCheck {
    /// The checks of the library points that `contributions` (each module's) reach, once each, in order of first use.
    static func checks<Lists: Sequence<[Contribution]>>(of contributions: Lists) -> [ContributionCheck] {
        var checks: [(name: String, check: ContributionCheck)] = []
        for list in contributions {
            for contribution in list {
                guard let point = contribution.libraryPoint, let check = point.check as? ContributionCheck,
                      !checks.contains(where: { $0.name == point.name }) else { continue }
                checks.append((point.name, check))
            }
        }
        return checks.map(\.check)
    }

    /// The errors the library checks find in `registrations` against `registered`: what adding them re-runs under
    /// the registry's lock, so that two registrations validated at once cannot both pass (as unique keys are
    /// rechecked). Validation ran the same checks before, so only what registered meanwhile can make one fail.
    static func recheck(_ registrations: [ModuleRegistration], against registered: [ModuleRegistration]) -> [ManifestDiagnostic] {
        let checks = checks(of: registrations.lazy.map(\.contributions))
        guard !checks.isEmpty else { return [] }
        let entries = registrations.map { registration in
            ContributingEntry(typeName: registration.typeName, path: registration.origin, location: nil,
                              routeOverrides: registration.routeOverrides, contributions: registration.contributions)
        }
        var sink = DiagnosticSink(file: nil)
        for check in checks where !sink.isFull {
            check.body(entries, registered, &sink)
        }
        return sink.diagnostics.filter { $0.severity == .error }
    }
}
