import ModuleHost

extension ModuleRoute {
    /// A typed value in a route: a path parameter (`:n` in `/numbers/fact/:n`) or a query item (`?limit=5`).
    ///
    /// The router decodes every parameter before the route's target runs, so a target reads typed values and never
    /// sees one out of range; a value that does not decode is refused with an error that names the parameter and
    /// what was expected.
    ///
    /// ```swift
    /// ModuleRoute("numbers.fact", pattern: "/numbers/fact/:n",
    ///             parameters: [.integer("n", in: -1_000_000...1_000_000)], summary: "a fact about n") { request in
    ///     .text("n is \(request.parameters.integer("n") ?? 0)")
    /// }
    /// ```
    public struct Parameter: Sendable, Hashable {
        /// What a parameter's text must be.
        package enum Kind: Sendable, Hashable {
            /// A decimal integer (an optional `-`, then digits) in the range.
            case integer(ClosedRange<Int>)
            /// Any text of at most this many bytes (after percent-decoding), without control characters.
            case text(maxLength: Int)
            /// One of these words, exactly.
            case oneOf([String])
        }

        /// The parameter's name: `n` for `:n`, or the query item's name.
        package let name: String
        /// What its text must be.
        package let kind: Kind
        /// Whether a query item must be present; path parameters are always present.
        package let isRequired: Bool

        /// A parameter of `kind`; `required` matters for query items only.
        package init(_ name: String, _ kind: Kind, required: Bool = true) {
            self.name = name
            self.kind = kind
            self.isRequired = required
        }

        /// An integer parameter in `range` (any `Int` by default).
        ///
        /// - Parameters:
        ///   - name: The parameter's name in the pattern or query.
        ///   - range: The values it takes.
        ///   - required: Whether the item must be given (it matters for query items only).
        /// - Returns: The parameter.
        public static func integer(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max, required: Bool = true) -> Parameter {
            Parameter(name, .integer(range), required: required)
        }

        /// A text parameter of at most `maxLength` bytes (at most 256, the most any parameter may have).
        ///
        /// - Parameters:
        ///   - name: The parameter's name in the pattern or query.
        ///   - maxLength: The most bytes it takes.
        ///   - required: Whether the item must be given (it matters for query items only).
        /// - Returns: The parameter.
        public static func text(_ name: String, maxLength: Int = 256, required: Bool = true) -> Parameter {
            Parameter(name, .text(maxLength: maxLength), required: required)
        }

        /// A parameter that is one of `values`.
        ///
        /// - Parameters:
        ///   - name: The parameter's name in the pattern or query.
        ///   - values: The values it takes.
        ///   - required: Whether the item must be given (it matters for query items only).
        /// - Returns: The parameter.
        public static func oneOf(_ name: String, _ values: [String], required: Bool = true) -> Parameter {
            Parameter(name, .oneOf(values), required: required)
        }

        /// What the parameter expects, in words: "an integer in 0...100".
        package var expected: String {
            switch kind {
            case .integer(let range):
                if range == Int.min...Int.max { return "an integer" }
                return "an integer in \(range.lowerBound)...\(range.upperBound)"
            case .text(let maxLength):
                return "text of at most \(min(maxLength, RouteLimits.parameterBytes)) bytes without control characters"
            case .oneOf(let values):
                return "one of " + values.map { "\"\($0)\"" }.joined(separator: ", ")
            }
        }

        /// The decoded value of `raw` (already percent-decoded), or `nil` when it is not what the parameter expects.
        package func decode(_ raw: String) -> RouteRequest.Parameters.Value? {
            guard raw.utf8.count <= RouteLimits.parameterBytes else { return nil }
            switch kind {
            case .integer(let range):
                guard let value = Self.integer(from: raw), range.contains(value) else { return nil }
                return .integer(value)
            case .text(let maxLength):
                guard raw.utf8.count <= maxLength, !raw.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                    return nil
                }
                return .text(raw)
            case .oneOf(let values):
                return values.contains(raw) ? .text(raw) : nil
            }
        }

        /// A decimal integer in its one canonical spelling: an optional leading `-`, then digits with no leading zero
        /// (`0` alone, never `-0`, `007` or `+7`), so that each value has one URL, which redirect-loop detection compares.
        static func integer(from raw: String) -> Int? {
            let negative = raw.hasPrefix("-")
            let digits = negative ? raw.utf8.dropFirst() : raw.utf8[...]
            guard let first = digits.first, digits.count <= 20, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            guard first != 0x30 || (digits.count == 1 && !negative) else { return nil }
            return Int(raw)
        }
    }
}
