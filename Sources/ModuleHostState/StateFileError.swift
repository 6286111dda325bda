import ModuleHost
/// Why a ``StateFile`` could not be read or written; the message names the path and the system's reason.
public struct StateFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed.
    ///
    /// A growable `ErrorCode` of ModuleHost: a `switch` over one needs a `default:`.
    public typealias Code = ErrorCode<StateFileError>

    /// What failed.
    public let code: Code
    /// The file or directory concerned.
    public let path: String
    /// A human explanation, including the system's reason.
    public let message: String

    /// Creates an error.
    package init(_ code: Code, path: String, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

extension ErrorCode where Domain == StateFileError {
    /// The file exists but cannot be read.
    public static var unreadable: Self { Self(rawValue: "unreadable") }

    /// The file is larger than the caller's limit.
    public static var tooLarge: Self { Self(rawValue: "tooLarge") }

    /// The state directory cannot be created, or is not a directory.
    public static var directoryUnavailable: Self { Self(rawValue: "directoryUnavailable") }

    /// The new content could not be written or put in place; the old file is intact.
    public static var writeFailed: Self { Self(rawValue: "writeFailed") }

    /// The file could not be deleted.
    public static var removeFailed: Self { Self(rawValue: "removeFailed") }

    /// The name given for a state file, or the identifier of the module whose folder would hold it, is not
    /// one plain file name (it is empty, `.` or `..`, or holds a `/` or a NUL); or the context given names no
    /// module.
    public static var invalidName: Self { Self(rawValue: "invalidName") }

    /// The file belongs to a module instance that was released (see ``StateFile/init(url:maximumSize:owner:)``).
    public static var ownerReleased: Self { Self(rawValue: "ownerReleased") }
}
