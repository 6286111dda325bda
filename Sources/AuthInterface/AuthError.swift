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
    public typealias Code = ErrorCode<AuthError>

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

extension ErrorCode where Domain == AuthError {
    /// No user with that username is configured.
    public static var unknownUser: Self { Self(rawValue: "unknownUser") }

    /// The password does not match.
    public static var wrongPassword: Self { Self(rawValue: "wrongPassword") }

    /// `logIn` was called while a session is active.
    public static var alreadyAuthenticated: Self { Self(rawValue: "alreadyAuthenticated") }

    /// The configuration is invalid (the message says where).
    public static var invalidConfiguration: Self { Self(rawValue: "invalidConfiguration") }

    /// Reading or writing the session storage failed.
    public static var storageFailed: Self { Self(rawValue: "storageFailed") }

    /// The system's crypt(3) could not hash or verify a password.
    public static var hashingUnavailable: Self { Self(rawValue: "hashingUnavailable") }

    /// Every code this version knows, in the order they are declared.
    package static var allCases: [Self] {
        [
            .unknownUser, .wrongPassword, .alreadyAuthenticated, .invalidConfiguration, .storageFailed,
            .hashingUnavailable
        ]
    }
}
