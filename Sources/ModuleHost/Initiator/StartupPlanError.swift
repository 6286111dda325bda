/// The error thrown for an invalid startup plan; it lists every problem found, not just the first.
public struct StartupPlanError: Error, Sendable, CustomStringConvertible {
    /// Every problem found, grouped by kind in a deterministic order.
    public let problems: [Problem]

    /// Creates an error from its problems.
    init(problems: [Problem]) {
        self.problems = problems
    }

    /// The problems' codes, in order.
    package var codes: [Problem.Code] { problems.map(\.code) }

    /// A multi-line summary: a heading, then one indented line per problem.
    public var description: String {
        let noun = problems.count == 1 ? "problem" : "problems"
        let lines = problems.map { "  - \($0.message)" }
        return (["invalid startup plan (\(problems.count) \(noun)):"] + lines).joined(separator: "\n")
    }
}
