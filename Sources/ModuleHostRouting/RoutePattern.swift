import ModuleHost

/// A parsed route pattern: `/numbers/fact/:n` is the literal `numbers`, the literal `fact` and the parameter `n`.
package struct RoutePattern: Sendable, Hashable {
    package enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    package let segments: [Segment]

    /// The names of the parameters, in order.
    package var parameterNames: [String] {
        segments.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// The pattern with its parameters' names left out (`/numbers/fact/:`): two patterns with the same shape match
    /// exactly the same paths, so they cannot both be routes.
    package var shape: String {
        "/" + segments.map { if case .literal(let text) = $0 { text } else { ":" } }.joined(separator: "/")
    }

    /// Parses `text`, or says what is wrong with it.
    static func parse(_ text: String) -> Result<RoutePattern, PatternProblem> {
        guard text.utf8.count <= RouteLimits.parameterBytes else {
            return .failure(PatternProblem("it is longer than \(RouteLimits.parameterBytes) bytes"))
        }
        guard text.hasPrefix("/"), text.count > 1 else {
            return .failure(PatternProblem("a pattern starts with \"/\" and has at least one segment, like \"/numbers/fact/:n\""))
        }
        let parts = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= RouteLimits.segments else {
            return .failure(PatternProblem("it has more than \(RouteLimits.segments) segments"))
        }
        var segments: [Segment] = []
        var names: Set<String> = []
        for part in parts {
            switch segment(String(part)) {
            case .failure(let problem): return .failure(problem)
            case .success(let segment):
                if case .parameter(let name) = segment, !names.insert(name).inserted {
                    return .failure(PatternProblem("the parameter \":\(name)\" appears twice"))
                }
                segments.append(segment)
            }
        }
        return .success(RoutePattern(segments: segments))
    }

    private static func segment(_ part: String) -> Result<Segment, PatternProblem> {
        if part.isEmpty { return .failure(PatternProblem("it has an empty segment (\"//\" or a trailing \"/\")")) }
        if part.hasPrefix(":") {
            let name = String(part.dropFirst())
            guard isParameterName(name) else {
                return .failure(PatternProblem("\"\(part)\" is not a parameter: after \":\" comes a name of ASCII letters, digits and \"_\" (at most 32, not starting with a digit)"))
            }
            return .success(.parameter(name))
        }
        guard part != ".", part != "..", part.utf8.allSatisfy(isUnreserved) else {
            return .failure(PatternProblem("the segment \(DisplayText.quoted(part, with: "\"")) may contain only ASCII letters, digits, \"-\", \".\", \"_\" and \"~\", and is not \".\" or \"..\""))
        }
        return .success(.literal(part))
    }

    /// Whether `name` can name a parameter (or a query item).
    static func isParameterName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 32, !(first >= 0x30 && first <= 0x39) else { return false }
        return name.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "_") }
    }

    /// RFC 3986's unreserved characters: what a segment may hold without percent-encoding.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}

/// Why a pattern (or a route declaration) is not valid, in words.
struct PatternProblem: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}

extension ModuleRoute {
    /// The parsed pattern, or what is wrong with the route: its identifier, pattern, or parameter declarations.
    func parsedPattern() -> Result<RoutePattern, PatternProblem> {
        if let problem = ModuleCommand.problem(withName: identifier) {
            return .failure(PatternProblem("its identifier \(DisplayText.quoted(identifier, with: "\"")) is not valid: \(problem.replacing("command name", with: "route identifier"))"))
        }
        let parsed = RoutePattern.parse(pattern)
        guard case .success(let pattern) = parsed else { return parsed }
        let names = Set(pattern.parameterNames)
        for parameter in parameters where !names.contains(parameter.name) {
            return .failure(PatternProblem("it declares the parameter \"\(parameter.name)\", which its pattern does not have"))
        }
        var seen = names
        for item in query {
            guard RoutePattern.isParameterName(item.name) else {
                return .failure(PatternProblem("its query item \(DisplayText.quoted(item.name, with: "\"")) is not a name of ASCII letters, digits and \"_\""))
            }
            guard seen.insert(item.name).inserted else {
                return .failure(PatternProblem("the name \"\(item.name)\" is declared twice (as parameters or query items)"))
            }
        }
        return .success(pattern)
    }
}
