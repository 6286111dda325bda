/// Why a module command did not succeed; its code decides the host's exit status.
public struct ModuleCommandError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure; stable, for hosts and tests to match on.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The command was called wrongly (arguments); `app-shell` exits 64.
        case usage
        /// No registered module declares a command of that name; `app-shell` exits 64.
        case unknownCommand
        /// The module that declares the command (or a service it needs) could not be loaded; `app-shell` exits 1.
        case moduleUnavailable
        /// The user is not allowed to do this (for example wrong credentials); `app-shell` exits 77.
        case permissionDenied
        /// Input ended, or the host was interrupted, before the command had what it needed; `app-shell` exits 1.
        case inputEnded
        /// Anything else went wrong; `app-shell` exits 1.
        case failed
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
