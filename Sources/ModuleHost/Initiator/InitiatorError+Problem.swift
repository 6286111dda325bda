extension InitiatorError {
    /// One thing wrong with a startup plan (an ``InitiatorError`` with code ``InitiatorError/Code/invalidPlan``
    /// lists them in ``InitiatorError/problems``), as a value with a machine-readable code and a human message.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The kind of problem.
        ///
        /// A growable ``ErrorCode``: a `switch` over one needs a `default:`.
        public struct Code: ErrorCode, Codable {
            /// The code's stable name, as JSON output prints it.
            public let rawValue: String

            /// Creates a code from its name; any name is accepted, so codes added later still decode.
            public init(rawValue: String) {
                self.rawValue = rawValue
            }

            /// An operation has an empty identifier.
            public static let emptyIdentifier = Code(rawValue: "emptyIdentifier")

            /// Two operations share an identifier.
            public static let duplicateIdentifier = Code(rawValue: "duplicateIdentifier")

            /// An operation depends on an identifier no operation has.
            public static let unknownDependency = Code(rawValue: "unknownDependency")

            /// An operation depends on an operation that runs in a later phase.
            public static let laterPhaseDependency = Code(rawValue: "laterPhaseDependency")

            /// Operations depend on each other in a cycle.
            public static let cycle = Code(rawValue: "cycle")
        }

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
