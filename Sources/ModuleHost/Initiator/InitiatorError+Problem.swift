extension InitiatorError {
    /// One thing wrong with a startup plan (an ``InitiatorError`` with code `InitiatorError.Code.invalidPlan`
    /// lists them in ``InitiatorError/problems``), as a value with a machine-readable code and a human message.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The kind of problem.
        ///
        /// A growable ``ErrorCode``: a `switch` over one needs a `default:`.
        public typealias Code = ErrorCode<InitiatorError.Problem>

        /// The kind of problem.
        public let code: Code
        /// A human-readable explanation naming the operations involved.
        public let message: String
        /// The identifiers of the operations involved, in the order the message names them.
        public let operations: [String]
        /// A "did you mean" identifier for unknown dependencies, when one is close enough.
        public let suggestion: String?

        /// Creates a problem.
        init(code: Code, message: String, operations: [String], suggestion: String? = nil) {
            self.code = code
            self.message = message
            self.operations = operations
            self.suggestion = suggestion
        }

        /// The human-readable message.
        public var description: String { message }
    }
}

extension ErrorCode where Domain == InitiatorError.Problem {
    /// An operation has an empty identifier.
    public static var emptyIdentifier: Self { Self(rawValue: "emptyIdentifier") }

    /// Two operations share an identifier.
    public static var duplicateIdentifier: Self { Self(rawValue: "duplicateIdentifier") }

    /// An operation depends on an identifier no operation has.
    public static var unknownDependency: Self { Self(rawValue: "unknownDependency") }

    /// An operation depends on an operation that runs in a later phase.
    public static var laterPhaseDependency: Self { Self(rawValue: "laterPhaseDependency") }

    /// Operations depend on each other in a cycle.
    public static var cycle: Self { Self(rawValue: "cycle") }
}
