extension ManifestValidator {
    /// Pass 4: every route is valid, no two enabled routes match the same links (across this manifest and what is
    /// registered), and every route override names a route of its module.
    func checkRoutes(of resolved: [ResolvedEntry], into sink: inout DiagnosticSink) {
        if let routing = manifest.routing, let current = existing.routing, current.settings != routing {
            sink.report(.error, .invalidRouting, path: "routing", location: nil,
                        "the routing settings differ from those \(current.origin) set (scheme \"\(current.settings.scheme)\", host \"\(current.settings.host)\"); an app has one set")
        }
        var shapes = existing.routes
        for item in resolved where !sink.isFull {
            let entry = item.entry
            let routes = Contribution.values(of: item.contributions, for: ModuleRoute.point)
            checkRouteOverrides(of: entry, declared: routes.map(\.identifier), into: &sink)
            var identifiers: Set<String> = []
            for route in routes where !sink.isFull {
                let owner = "\(entry.typeName) (\(entry.path))"
                guard identifiers.insert(route.identifier).inserted else {
                    report(.error, .duplicateRoute, entry, path: "\(entry.path).type",
                           "\(entry.typeName) declares the route \"\(route.identifier)\" twice", into: &sink)
                    continue
                }
                switch route.parsedPattern() {
                case .failure(let problem):
                    report(.error, .invalidRoute, entry, path: "\(entry.path).type",
                           "\(entry.typeName) declares the route \"\(route.identifier)\" with the pattern \(DisplayText.quoted(route.pattern, with: "\"")), which is not valid: \(problem.message)",
                           into: &sink)
                case .success(let pattern):
                    guard entry.routes[route.identifier]?.enabled ?? true else { continue }
                    let description = "the route \"\(route.identifier)\" (\(route.pattern)) of \(owner)"
                    if let other = shapes[pattern.shape] {
                        report(.error, .duplicateRoute, entry, path: "\(entry.path).type",
                               "\(description) and \(other) match the same links; give one another path, or disable one with \"routes\": {\"\(route.identifier)\": {\"enabled\": false}}",
                               into: &sink)
                    } else {
                        shapes[pattern.shape] = description
                    }
                }
            }
        }
    }

    /// Reports route overrides (`"routes": {…}`) that name no route the module declares.
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
