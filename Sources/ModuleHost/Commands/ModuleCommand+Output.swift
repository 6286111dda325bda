extension ModuleCommand {
    /// What a ``ModuleCommand`` prints when it succeeds: text, and optionally a value for structured output.
    public struct Output: Sendable {
        /// The text to print; empty prints nothing.
        public let text: String
        /// The value a host prints (as JSON) instead of ``text`` when structured output was asked for.
        public let value: (any Encodable & Sendable)?

        package init(text: String, value: (any Encodable & Sendable)? = nil) {
            self.text = text
            self.value = value
        }

        /// Text to print, and optionally a value that a host prints (as JSON) instead when structured output was
        /// asked for.
        ///
        /// - Parameters:
        ///   - text: The text to print; empty prints nothing.
        ///   - value: What `--json` prints instead of the text; `nil` prints the text as a JSON string.
        /// - Returns: The output.
        public static func text(_ text: String, value: (any Encodable & Sendable)? = nil) -> Output {
            Output(text: text, value: value)
        }
    }
}
