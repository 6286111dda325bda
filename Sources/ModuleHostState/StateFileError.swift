import ModuleHost
/// Why a ``StateFile`` could not be read or written; the message names the path and the system's reason.
public struct StateFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed.
    ///
    /// A growable `ErrorCode`: a `switch` over one needs a `default:`.
    public struct Code: ErrorCode {
        /// The code's stable name, as JSON output prints it.
        public let rawValue: String

        /// Creates a code from its name; any name is accepted, so codes added later still decode.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The file exists but cannot be read.
        public static let unreadable = Code(rawValue: "unreadable")

        /// The file is larger than the caller's limit.
        public static let tooLarge = Code(rawValue: "tooLarge")

        /// The state directory cannot be created, or is not a directory.
        public static let directoryUnavailable = Code(rawValue: "directoryUnavailable")

        /// The new content could not be written or put in place; the old file is intact.
        public static let writeFailed = Code(rawValue: "writeFailed")

        /// The file could not be deleted.
        public static let removeFailed = Code(rawValue: "removeFailed")

        /// The name given for a state file, or the identifier of the module whose folder would hold it, is not
        /// one plain file name (it is empty, `.` or `..`, or holds a `/` or a NUL).
        public static let invalidName = Code(rawValue: "invalidName")
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
