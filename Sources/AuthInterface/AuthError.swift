#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An error from the authentication service. The message never contains a password, a password
/// hash or a session token.
public struct AuthError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// What went wrong. `unknownUser` and `wrongPassword` are distinguished for tests and logs
    /// only; their user-visible message is the same.
    ///
    /// New codes may be added in later versions, so a `switch` over a code needs a `default:`; a code this
    /// version does not know (read from JSON written by a later one) keeps its raw value and is unequal to every
    /// code listed here.
    public struct Code: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The code's stable name, as JSON output prints it.
        public let rawValue: String

        /// Creates a code from its name; any name is accepted, so codes added later still decode.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// No user with that username is configured.
        public static let unknownUser = Code(rawValue: "unknownUser")

        /// The password does not match.
        public static let wrongPassword = Code(rawValue: "wrongPassword")

        /// `logIn` was called while a session is active.
        public static let alreadyAuthenticated = Code(rawValue: "alreadyAuthenticated")

        /// The configuration is invalid (the message says where).
        public static let invalidConfiguration = Code(rawValue: "invalidConfiguration")

        /// Reading or writing the session storage failed.
        public static let storageFailed = Code(rawValue: "storageFailed")

        /// The system's crypt(3) could not hash or verify a password.
        public static let hashingUnavailable = Code(rawValue: "hashingUnavailable")

        /// Every code this version knows, in the order they are declared.
        public static let allCases: [Code] = [
            .unknownUser, .wrongPassword, .alreadyAuthenticated, .invalidConfiguration, .storageFailed,
            .hashingUnavailable
        ]

        /// The raw value, so that a code prints (and interpolates) as its name.
        public var description: String { rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human-readable message, free of secrets.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message shown for both unknown users and wrong passwords.
    public static let invalidCredentialsMessage = "invalid username or password"

    /// The message; never contains a password or token.
    public var description: String { message }

    /// The message, for `LocalizedError` users.
    public var errorDescription: String? { message }
}
