extension StartupPlanError {
    /// One thing wrong with a startup plan, as a value with a machine-readable code and a human message.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The kind of problem.
        public enum Code: String, Sendable, Codable {
            /// An operation has an empty identifier.
            case emptyIdentifier
            /// Two operations share an identifier.
            case duplicateIdentifier
            /// An operation depends on an identifier no operation has.
            case unknownDependency
            /// An operation depends on an operation that runs in a later phase.
            case laterPhaseDependency
            /// Operations depend on each other in a cycle.
            case cycle
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
