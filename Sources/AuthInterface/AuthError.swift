#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost

/// An error from the authentication service. The message never contains a password, a password
/// hash or a session token.
public struct AuthError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// What went wrong. `unknownUser` and `wrongPassword` are distinguished for tests and logs
    /// only; their user-visible message is the same.
    ///
    /// A growable `ErrorCode`: a `switch` over one needs a `default:`.
    public struct Code: ErrorCode, CaseIterable {
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
