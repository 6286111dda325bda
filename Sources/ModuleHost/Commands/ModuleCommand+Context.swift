extension ModuleCommand {
    /// What a running ``ModuleCommand`` gets: its arguments, the manager, and the host's terminal.
    public struct Context: Sendable {
        /// The words after the command's name.
        public let arguments: [String]
        /// The manager whose module declared the command: resolve services through its bridge.
        public let manager: any ModuleContext
        /// Reads input from and writes text to the user.
        public let io: any IO
        /// Whether the user asked for structured output (`--json`); ``ModuleCommand/Output/value`` is printed then.
        public let wantsStructuredOutput: Bool

        /// Creates a context; hosts make one for each command they run.
        ///
        /// - Parameters:
        ///   - arguments: The words after the command's name.
        ///   - manager: The manager whose module declared the command.
        ///   - io: Reads input from and writes text to the user.
        ///   - wantsStructuredOutput: Whether the user asked for structured output (`--json`).
        public init(arguments: [String], manager: any ModuleContext, io: any IO, wantsStructuredOutput: Bool = false) {
            self.arguments = arguments
            self.manager = manager
            self.io = io
            self.wantsStructuredOutput = wantsStructuredOutput
        }

        /// The only argument, or a usage error naming `usage` when there is not exactly one.
        ///
        /// - Parameter usage: How to call the command, such as `greet <name>`, for the error.
        /// - Returns: The one argument.
        /// - Throws: ``ModuleCommandError`` with code `usage` when there is not exactly one argument.
        public func singleArgument(usage: String) throws(ModuleCommandError) -> String {
            guard arguments.count == 1, let argument = arguments.first else {
                throw ModuleCommandError(.usage, "usage: \(usage)")
            }
            return argument
        }
    }
}
