import AuthInterface
import ModuleHost

/// Something the host should tell the user about, e.g. why a stored session was not restored.
/// Messages never contain tokens, passwords or hashes.
struct AuthDiagnostic: Sendable, Equatable, CustomStringConvertible {
    enum Severity: String, Sendable, Equatable {
        case info, warning
    }

    enum Code: String, Sendable, Equatable {
        /// A stored session was restored.
        case sessionRestored
        /// The session file exists but could not be read (I/O error).
        case sessionFileUnreadable
        /// The session file is not JSON or is missing fields.
        case sessionFileCorrupted
        /// The session file is JSON but not ours (no or another format marker).
        case sessionFileForeign
        /// The session file has a version this code does not understand.
        case sessionFileUnsupportedVersion
        /// The stored session has expired.
        case sessionExpired
        /// The stored session's user is no longer configured.
        case sessionUserUnknown
        /// The stored session's user has a different password hash now.
        case sessionCredentialsChanged
        /// A stale or invalid session file could not be deleted.
        case sessionFileNotRemoved
        /// The session file's MAC is not the state directory key's: forged, edited, or from elsewhere.
        case sessionFileForged
        /// The state directory is readable by other users; it is used as it is (its mode is left alone).
        case stateDirectoryRepaired
    }

    let severity: Severity
    let code: Code
    let message: String

    init(_ severity: Severity, _ code: Code, _ message: String) {
        self.severity = severity
        self.code = code
        self.message = message
    }

    var description: String { "\(severity.rawValue): \(message)" }
}

/// A session starting or ending, which the AuthModule turns into the host's user session.
enum SessionChange: Sendable, Equatable {
    /// A session started (log-in or restore at startup).
    case authenticated(AuthenticatedUser)
    /// A session ended.
    case deauthenticated(AuthenticatedUser, reason: NotAuthenticatedReason)

    var user: AuthenticatedUser {
        switch self {
        case .authenticated(let user), .deauthenticated(let user, _): user
        }
    }

    /// Begins or ends the host's user session to match. A released instance's context refuses, and the change is
    /// dropped: that instance's files refuse too, so it cannot have signed anyone in or out for the next run.
    func apply(to manager: any ModuleContext) {
        switch self {
        case .authenticated(let user): _ = try? manager.beginUserSession(with: user.username, startedAt: user.authenticatedAt)
        case .deauthenticated(let user, _): _ = try? manager.endUserSession(with: user.username)
        }
    }
}
