extension ModuleCommand {
    /// How a ``ModuleCommand`` talks to the user; the host implements it (a terminal, a script on standard input,
    /// or a test double).
    public protocol IO: Sendable {
        /// The next line of input, after showing `prompt` where a person is typing; `nil` at the end of input or
        /// when the host was interrupted (the host then stops after the command returns).
        func readLine(prompt: String) async -> String?
        /// Like ``readLine(prompt:)``, but the line is not shown as it is typed (a password).
        func readSecret(prompt: String) async -> String?
        /// Shows a line of text to the user at once (progress; the result goes in ``ModuleCommand/Output``).
        func write(_ line: String)
        /// Whether a person is typing (a terminal) rather than a script feeding lines. A command that expects a
        /// follow-up line, such as a password, reads it even when it fails early in a script, so the line is never
        /// taken for the next command.
        var isInteractive: Bool { get }
    }
}

extension ModuleCommand.IO {
    /// Not interactive, unless the host says so.
    public var isInteractive: Bool { false }
}
