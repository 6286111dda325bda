/// Why a module command did not succeed; its code decides the host's exit status.
public struct ModuleCommandError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure; stable, for hosts and tests to match on.
    ///
    /// A growable ``ErrorCode``: a `switch` over one needs a `default:`.
    public typealias Code = ErrorCode<ModuleCommandError>

    /// The kind of failure.
    public let code: Code
    /// A human explanation, printed after `error:`.
    public let message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: A human explanation, printed after `error:`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

extension ErrorCode where Domain == ModuleCommandError {
    /// The command was called wrongly (arguments); `app-shell` exits 64.
    public static var usage: Self { Self(rawValue: "usage") }

    /// No registered module declares a command of that name; `app-shell` exits 64.
    public static var unknownCommand: Self { Self(rawValue: "unknownCommand") }

    /// The module that declares the command (or a service it needs) could not be loaded; `app-shell` exits 1.
    public static var moduleUnavailable: Self { Self(rawValue: "moduleUnavailable") }

    /// The user is not allowed to do this (for example wrong credentials); `app-shell` exits 77.
    public static var permissionDenied: Self { Self(rawValue: "permissionDenied") }

    /// Input ended, or the host was interrupted, before the command had what it needed; `app-shell` exits 1.
    public static var inputEnded: Self { Self(rawValue: "inputEnded") }

    /// Anything else went wrong; `app-shell` exits 1.
    public static var failed: Self { Self(rawValue: "failed") }

    /// Every code this version knows, in the order they are declared.
    package static var allCases: [Self] {
        [.usage, .unknownCommand, .moduleUnavailable, .permissionDenied, .inputEnded, .failed]
    }
}
