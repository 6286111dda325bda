/// Why a module command did not succeed; its code decides the host's exit status.
public struct ModuleCommandError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure; stable, for hosts and tests to match on.
    ///
    /// A growable ``ErrorCode``: a `switch` over one needs a `default:`.
    public struct Code: ErrorCode, CaseIterable {
        /// The code's stable name, as JSON output prints it.
        public let rawValue: String

        /// Creates a code from its name; any name is accepted, so codes added later still decode.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The command was called wrongly (arguments); `app-shell` exits 64.
        public static let usage = Code(rawValue: "usage")

        /// No registered module declares a command of that name; `app-shell` exits 64.
        public static let unknownCommand = Code(rawValue: "unknownCommand")

        /// The module that declares the command (or a service it needs) could not be loaded; `app-shell` exits 1.
        public static let moduleUnavailable = Code(rawValue: "moduleUnavailable")

        /// The user is not allowed to do this (for example wrong credentials); `app-shell` exits 77.
        public static let permissionDenied = Code(rawValue: "permissionDenied")

        /// Input ended, or the host was interrupted, before the command had what it needed; `app-shell` exits 1.
        public static let inputEnded = Code(rawValue: "inputEnded")

        /// Anything else went wrong; `app-shell` exits 1.
        public static let failed = Code(rawValue: "failed")

        /// Every code this version knows, in the order they are declared.
        public static let allCases: [Code] = [
            .usage, .unknownCommand, .moduleUnavailable, .permissionDenied, .inputEnded, .failed
        ]
    }

    /// The kind of failure.
    public let code: Code
    /// A human explanation, printed after `error:`.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
