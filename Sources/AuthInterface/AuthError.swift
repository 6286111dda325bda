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
    public enum Code: String, Sendable, Equatable, Hashable, CaseIterable {
        /// No user with that username is configured.
        case unknownUser
        /// The password does not match.
        case wrongPassword
        /// `logIn` was called while a session is active.
        case alreadyAuthenticated
        /// The configuration is invalid (the message says where).
        case invalidConfiguration
        /// Reading or writing the session storage failed.
        case storageFailed
        /// The system's crypt(3) could not hash or verify a password.
        case hashingUnavailable
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
