extension ManifestValidator {
    /// Pass 3c: the manifest's routing settings agree with those registered before, and an entry whose module
    /// contributes no route has no route overrides. (The routes themselves, their patterns, clashes and the
    /// overrides of the modules that contribute some, are checked by their library's point, ModuleHostRouting's.)
    func checkRouting(of resolved: [ResolvedEntry], into sink: inout DiagnosticSink) {
        if let routing = manifest.routing, let current = existing.routing, current.settings != routing {
            sink.report(.error, .invalidRouting, path: "routing", location: nil,
                        "the routing settings differ from those \(current.origin) set (scheme \"\(current.settings.scheme)\", host \"\(current.settings.host)\"); an app has one set")
        }
        for item in resolved where !item.entry.routes.isEmpty && !sink.isFull {
            guard !item.contributions.contains(where: { $0.libraryPoint?.name == RouteOverride.pointName }) else { continue }
            for name in item.entry.routes.keys.sorted() where !sink.isFull {
                sink.report(.error, .unknownRoute, path: "\(item.entry.path).routes.\(name)",
                            location: item.entry.routes[name]?.location ?? item.entry.location,
                            "\(item.entry.typeName) has no route \(DisplayText.quoted(name, with: "\"")); it declares no routes")
            }
        }
    }

    /// Pass 3d: each library point that the manifest's modules contribute to checks their contributions, once.
    func checkLibraryPoints(of resolved: [ResolvedEntry], into sink: inout DiagnosticSink) {
        let checks = ContributionCheck.checks(of: resolved.lazy.map(\.contributions))
        guard !checks.isEmpty else { return }
        let entries = resolved.map { item in
            ContributingEntry(typeName: item.entry.typeName, path: item.entry.path, location: item.entry.location,
                              routeOverrides: item.entry.routes, contributions: item.contributions)
        }
        for check in checks where !sink.isFull {
            check.body(entries, existing.registrations, &sink)
        }
    }
}
