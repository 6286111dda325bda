#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Whether somebody is logged in. Only the authenticated state carries a user; the session
/// token is an implementation detail and never leaves the module.
public enum AuthenticationModel: Sendable, Equatable {
    /// Nobody is logged in. The reason says why, when there was a session before; `nil` when
    /// there never was one (e.g. at startup without a stored session).
    case notAuthenticated(NotAuthenticatedReason?)
    /// A user is logged in.
    case authenticated(AuthenticatedUser)

    /// The logged-in user, if any.
    public var user: AuthenticatedUser? {
        if case .authenticated(let user) = self { return user }
        return nil
    }

    /// `true` when somebody is logged in.
    public var isAuthenticated: Bool { user != nil }
}

/// Why nobody is logged in (any more).
public enum NotAuthenticatedReason: String, Sendable, Equatable, Hashable, Codable {
    /// The user logged out.
    case loggedOut
    /// The session's lifetime ended.
    case expired
    /// A stored session was rejected: its user no longer exists or the password was changed.
    case revoked
}

/// The user of an active session. Contains no secrets: no token, no password, no hash.
public struct AuthenticatedUser: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The username the user logged in with.
    public let username: String
    /// The name to show; the username when the configuration gives none.
    public let displayName: String
    /// When the session started.
    public let authenticatedAt: Date
    /// When the session ends.
    public let expiresAt: Date

    /// Creates a user value.
    public init(username: String, displayName: String, authenticatedAt: Date, expiresAt: Date) {
        self.username = username
        self.displayName = displayName
        self.authenticatedAt = authenticatedAt
        self.expiresAt = expiresAt
    }

    /// `true` when the session has ended at `date`.
    public func isExpired(at date: Date) -> Bool {
        date >= expiresAt
    }

    /// The username, display name and session end; no secrets.
    public var description: String {
        "\(username) (\(displayName)), session until \(expiresAt.formatted(.iso8601))"
    }
}
