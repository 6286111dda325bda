extension ModuleCommand {
    /// What a ``ModuleCommand`` prints when it succeeds: text, and optionally a value for structured output.
    public struct Output: Sendable {
        /// The text to print; empty prints nothing.
        public let text: String
        /// The value a host prints (as JSON) instead of ``text`` when structured output was asked for.
        public let value: (any Encodable & Sendable)?

        /// Text, and optionally a value for structured output.
        public init(text: String, value: (any Encodable & Sendable)? = nil) {
            self.text = text
            self.value = value
        }

        /// Text only.
        public static func text(_ text: String) -> Output {
            Output(text: text)
        }

        /// Nothing to print.
        public static let none = Output(text: "")
    }
}
