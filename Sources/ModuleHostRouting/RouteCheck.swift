import ModuleHost

/// What `validate` checks of the routes a manifest's modules contribute (`ModuleRoute.point`'s check): every route
/// is valid and declared once by its module, each of the entry's route overrides names one of its routes (by
/// identifier, as the router applies them), and no two enabled routes match the same links, across the manifest and
/// what is registered. (An entry whose module contributes no route, ModuleHost checks with the manifest.)
enum RouteCheck {
    static func run(_ entries: [ContributingEntry], registered: [ModuleRegistration], sink: inout DiagnosticSink) {
        var shapes = registeredShapes(registered)
        for entry in entries where !sink.isFull {
            let routes = Contribution.values(of: entry.contributions, for: ModuleRoute.point)
            guard !routes.isEmpty else { continue }
            checkOverrides(of: entry, declared: routes.map(\.identifier), into: &sink)
            var identifiers: Set<String> = []
            for route in routes where !sink.isFull {
                guard identifiers.insert(route.identifier).inserted else {
                    report(.duplicateRoute, entry, "\(entry.typeName) declares the route \"\(route.identifier)\" twice", into: &sink)
                    continue
                }
                check(route, of: entry, shapes: &shapes, into: &sink)
            }
        }
    }

    /// A route's pattern parses, and, when the route is enabled, no route before it matches the same links.
    private static func check(_ route: ModuleRoute, of entry: ContributingEntry, shapes: inout [String: String],
                              into sink: inout DiagnosticSink) {
        switch route.parsedPattern() {
        case .failure(let problem):
            report(.invalidRoute, entry,
                   "\(entry.typeName) declares the route \"\(route.identifier)\" with the pattern \(DisplayText.quoted(route.pattern, with: "\"")), which is not valid: \(problem.message)",
                   into: &sink)
        case .success(let pattern):
            guard entry.routeOverrides[route.identifier]?.enabled ?? true else { return }
            let description = "the route \"\(route.identifier)\" (\(route.pattern)) of \(entry.typeName) (\(entry.path))"
            if let other = shapes[pattern.shape] {
                report(.duplicateRoute, entry,
                       "\(description) and \(other) match the same links; give one another path, or disable one with \"routes\": {\"\(route.identifier)\": {\"enabled\": false}}",
                       into: &sink)
            } else {
                shapes[pattern.shape] = description
            }
        }
    }

    /// Each of the entry's overrides names a route its module declares; otherwise an error at the override, with the
    /// closest identifier.
    private static func checkOverrides(of entry: ContributingEntry, declared: [String], into sink: inout DiagnosticSink) {
        for name in entry.routeOverrides.keys.sorted() where !declared.contains(name) && !sink.isFull {
            sink.report(.error, .unknownRoute, path: "\(entry.path).routes.\(name)",
                        location: entry.routeOverrides[name]?.location ?? entry.location,
                        "\(entry.typeName) has no route \(DisplayText.quoted(name, with: "\"")); it declares \(declared.map { "\"\($0)\"" }.joined(separator: ", "))",
                        suggestion: Suggestions.closest(to: name, in: declared).map { "did you mean \"\($0)\"?" })
        }
    }

    /// The shapes of the enabled routes registered before, each with what to call it in a message.
    private static func registeredShapes(_ registered: [ModuleRegistration]) -> [String: String] {
        var shapes: [String: String] = [:]
        for registration in registered {
            for route in RegisteredRoute.routes(of: registration) {
                shapes[route.pattern.shape] = "the route \"\(route.route.identifier)\" (\(route.route.pattern)) of \(registration.typeName) (\(registration.origin))"
            }
        }
        return shapes
    }

    private static func report(_ code: ManifestDiagnostic.Code, _ entry: ContributingEntry, _ message: String,
                               into sink: inout DiagnosticSink) {
        sink.report(.error, code, path: "\(entry.path).type", location: entry.location, message)
    }
}
