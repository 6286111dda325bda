import ModuleHost
/// Why a ``StateFile`` could not be read or written; the message names the path and the system's reason.
public struct StateFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed.
    public enum Code: String, Sendable, Hashable {
        /// The file exists but cannot be read.
        case unreadable
        /// The file is larger than the caller's limit.
        case tooLarge
        /// The state directory cannot be created, or is not a directory.
        case directoryUnavailable
        /// The new content could not be written or put in place; the old file is intact.
        case writeFailed
        /// The file could not be deleted.
        case removeFailed
        /// The name given for a state file, or the identifier of the module whose folder would hold it, is not
        /// one plain file name (it is empty, `.` or `..`, or holds a `/` or a NUL).
        case invalidName
    }

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
