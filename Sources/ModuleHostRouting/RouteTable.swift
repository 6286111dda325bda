import ModuleHost

/// The enabled routes as a tree of path segments: a link's route is found in work proportional to its segments.
///
/// At each segment a literal wins over a parameter, and the search backs up to the parameter only when the literal
/// leads nowhere, so `/numbers/history` and `/numbers/:n` both work. Validation guarantees no two routes have the
/// same shape, so every path has at most one route.
struct RouteTable: Sendable {
    private struct Node: Sendable {
        var literals: [String: Int] = [:]
        var parameter: Int?
        var route: Int?
    }

    private var nodes = [Node()]
    let routes: [RegisteredRoute]
    /// The scheme and host links use.
    let settings: RoutingSettings

    /// The longest path, in bytes, for which a "did you mean" route is looked for.
    static let longestSuggestedPath = 128

    init(_ routes: [RegisteredRoute], settings: RoutingSettings) {
        self.routes = routes
        self.settings = settings
        for (index, route) in routes.enumerated() {
            insert(route.pattern, as: index)
        }
    }

    private mutating func insert(_ pattern: RoutePattern, as route: Int) {
        var current = 0
        for segment in pattern.segments {
            let next: Int? = switch segment {
            case .literal(let text): nodes[current].literals[text]
            case .parameter: nodes[current].parameter
            }
            if let next {
                current = next
                continue
            }
            nodes.append(Node())
            let created = nodes.count - 1
            switch segment {
            case .literal(let text): nodes[current].literals[text] = created
            case .parameter: nodes[current].parameter = created
            }
            current = created
        }
        if nodes[current].route == nil { nodes[current].route = route }
    }

    /// The route whose pattern matches `segments`, with the text of each of its path parameters.
    func match(_ segments: [String]) -> (route: RegisteredRoute, values: [String: String])? {
        guard let index = search(segments[...], from: 0) else { return nil }
        let route = routes[index]
        var values: [String: String] = [:]
        for (segment, text) in zip(route.pattern.segments, segments) {
            if case .parameter(let name) = segment { values[name] = text }
        }
        return (route, values)
    }

    private func search(_ segments: ArraySlice<String>, from node: Int) -> Int? {
        guard let first = segments.first else { return nodes[node].route }
        if let literal = nodes[node].literals[first], let found = search(segments.dropFirst(), from: literal) {
            return found
        }
        if let parameter = nodes[node].parameter {
            return search(segments.dropFirst(), from: parameter)
        }
        return nil
    }

    /// The pattern of the route closest to `segments` among those `included`, for "did you mean" hints: each
    /// pattern is written with the link's own text in place of its parameters, and compared with the link's path.
    func closest(to segments: [String], where included: (RegisteredRoute) -> Bool) -> String? {
        let path = "/" + segments.joined(separator: "/")
        // An edit distance costs the product of the lengths: past this a long link from outside would cost work
        // that grows with the square of its length, for a hint nobody needs.
        guard path.utf8.count <= Self.longestSuggestedPath else { return nil }
        var patterns: [String: String] = [:]
        var candidates: [String] = []
        for route in routes where included(route) {
            let filled = route.pattern.segments.enumerated().map { index, segment in
                switch segment {
                case .literal(let text): text
                case .parameter(let name): index < segments.count ? segments[index] : ":\(name)"
                }
            }
            let candidate = "/" + filled.joined(separator: "/")
            if patterns[candidate] == nil {
                patterns[candidate] = route.route.pattern
                candidates.append(candidate)
            }
        }
        return Suggestions.closest(to: path, in: candidates).flatMap { patterns[$0] }
    }
}
