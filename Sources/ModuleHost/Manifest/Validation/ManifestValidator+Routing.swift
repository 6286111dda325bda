extension ManifestValidator {
    /// Pass 3c: the manifest's routing settings agree with those registered before, and each entry's route
    /// overrides name routes its module contributes. (The routes themselves, their patterns and clashes, are
    /// checked by their library's point, ModuleHostRouting's.)
    func checkRouting(of resolved: [ResolvedEntry], into sink: inout DiagnosticSink) {
        if let routing = manifest.routing, let current = existing.routing, current.settings != routing {
            sink.report(.error, .invalidRouting, path: "routing", location: nil,
                        "the routing settings differ from those \(current.origin) set (scheme \"\(current.settings.scheme)\", host \"\(current.settings.host)\"); an app has one set")
        }
        for item in resolved where !item.entry.routes.isEmpty && !sink.isFull {
            let declared = item.contributions.compactMap { $0.pointName == RouteOverride.pointName ? $0.key : nil }
            checkRouteOverrides(of: item.entry, declared: declared, into: &sink)
        }
    }

    /// Pass 3d: each library point that the manifest's modules contribute to checks their contributions, once.
    func checkLibraryPoints(of resolved: [ResolvedEntry], into sink: inout DiagnosticSink) {
        var checks: [(name: String, check: ContributionCheck)] = []
        for item in resolved {
            for contribution in item.contributions {
                guard let point = contribution.libraryPoint, let check = point.check as? ContributionCheck,
                      !checks.contains(where: { $0.name == point.name }) else { continue }
                checks.append((point.name, check))
            }
        }
        guard !checks.isEmpty else { return }
        let entries = resolved.map { item in
            ContributingEntry(typeName: item.entry.typeName, path: item.entry.path, location: item.entry.location,
                              routeOverrides: item.entry.routes, contributions: item.contributions)
        }
        for (_, check) in checks where !sink.isFull {
            check.body(entries, existing.registrations, &sink)
        }
    }

    private func checkRouteOverrides(of entry: Manifest.Entry, declared: [String], into sink: inout DiagnosticSink) {
        for name in entry.routes.keys.sorted() where !declared.contains(name) && !sink.isFull {
            let list = declared.isEmpty ? "it declares no routes" : "it declares \(declared.map { "\"\($0)\"" }.joined(separator: ", "))"
            sink.report(.error, .unknownRoute, path: "\(entry.path).routes.\(name)",
                        location: entry.routes[name]?.location ?? entry.location,
                        "\(entry.typeName) has no route \(DisplayText.quoted(name, with: "\"")); \(list)",
                        suggestion: Suggestions.closest(to: name, in: declared).map { "did you mean \"\($0)\"?" })
        }
    }
}
