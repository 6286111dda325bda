#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The AuthModule's configuration, as found in the app's manifest.
///
/// ```json
/// {
///   "users": [ { "username": "alice", "displayName": "Alice", "passwordHash": "$y$j9T$..." } ],
///   "usersFile": "users.json",
///   "stateDirectory": ".app-shell",
///   "sessionLifetime": 28800
/// }
/// ```
///
/// `users` and `usersFile` may both be given; together they must name at least one user and no
/// username twice. `usersFile` holds either the same users array or an object `{"users": [...]}`;
/// a relative path is resolved against the base directory given when the configuration is
/// loaded (usually the manifest's directory), and so is a relative `stateDirectory`, which then holds
/// `session.json` and `session.key` itself. Without `stateDirectory` the session is kept in the module's own folder
/// in the host's state folder, `<state>/com.modulehost.auth` (app-shell's state folder is `.app-shell` in the
/// working directory); a session left in the state folder itself by an earlier version is read and moved there.
/// `sessionLifetime` is in seconds (default 8 hours).
///
/// Unknown keys are rejected so that typos do not go unnoticed.
public struct AuthConfiguration: Decodable, Sendable, Equatable {
    /// One configured user. `passwordHash` is a crypt(3) hash such as `$y$...` (yescrypt) or
    /// `$6$...` (sha512crypt); never a plaintext password.
    public struct UserRecord: Decodable, Sendable, Equatable, CustomStringConvertible,
        CustomDebugStringConvertible, CustomReflectable
    {
        /// The name the user logs in with.
        public var username: String
        /// The name to show; the username when absent.
        public var displayName: String?
        /// The salted crypt(3) hash of the password (`$y$...` or `$6$...`), never the password itself.
        public var passwordHash: String

        /// Creates a user record.
        public init(username: String, displayName: String? = nil, passwordHash: String) {
            self.username = username
            self.displayName = displayName
            self.passwordHash = passwordHash
        }

        /// The keys a user record may have.
        private static let keys: [ConfigurationKey] = [.username, .displayName, .passwordHash]

        /// Decodes a user record, rejecting unknown fields.
        public init(from decoder: any Decoder) throws {
            let container = try ConfigurationKey.container(of: decoder, allowing: Self.keys)
            username = try container.decode(String.self, forKey: .username)
            displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
            passwordHash = try container.decode(String.self, forKey: .passwordHash)
            // Checked here, so that validating a manifest finds what loading the module would.
            guard PasswordHasher.looksLikeSupportedHash(passwordHash) else {
                // Never echo the value: it might be a plaintext password.
                throw DecodingError.dataCorruptedError(
                    forKey: .passwordHash, in: container,
                    debugDescription: "passwordHash of \"\(username)\" is not a supported crypt(3) hash; expected a salted slow "
                        + "hash such as \"$y$...\" (yescrypt) or \"$6$...\" (sha512crypt), never a plaintext password")
            }
        }

        /// The username and display name; never the hash.
        public var description: String {
            let name = displayName.map { ", displayName: \(String(reflecting: $0))" } ?? ""
            return "UserRecord(username: \(String(reflecting: username))\(name), passwordHash: <redacted>)"
        }

        /// The same as `description`; never the hash.
        public var debugDescription: String { description }

        /// A mirror without the hash, so dumps cannot leak it.
        public var customMirror: Mirror {
            Mirror(self, children: ["username": username, "displayName": displayName as Any], displayStyle: .struct)
        }
    }

    /// Users given inline.
    public var users: [UserRecord]
    /// A JSON file with more users.
    public var usersFile: String?
    /// Where the session is persisted.
    public var stateDirectory: String?
    /// How long a session lasts, in seconds.
    public var sessionLifetime: Double?

    /// The session lifetime used when the configuration gives none: 8 hours.
    public static let defaultSessionLifetime: Double = 8 * 60 * 60
    /// The longest session lifetime accepted: 366 days, in seconds.
    public static let maximumSessionLifetime: Double = 366 * 24 * 60 * 60
    /// The host's state folder, relative to the working directory, used when no host provides one (the session is
    /// then kept in the module's folder inside it, unless the configuration names a `stateDirectory`).
    public static let defaultStateDirectory = ".app-shell"

    /// Creates a configuration.
    public init(
        users: [UserRecord] = [],
        usersFile: String? = nil,
        stateDirectory: String? = nil,
        sessionLifetime: Double? = nil
    ) {
        self.users = users
        self.usersFile = usersFile
        self.stateDirectory = stateDirectory
        self.sessionLifetime = sessionLifetime
    }

    /// The keys a configuration may have.
    private static let keys: [ConfigurationKey] = [.users, .usersFile, .stateDirectory, .sessionLifetime]

    /// Decodes a configuration, rejecting unknown fields.
    public init(from decoder: any Decoder) throws {
        let container = try ConfigurationKey.container(of: decoder, allowing: Self.keys)
        users = try container.decodeIfPresent([UserRecord].self, forKey: .users) ?? []
        usersFile = try container.decodeIfPresent(String.self, forKey: .usersFile)
        stateDirectory = try container.decodeIfPresent(String.self, forKey: .stateDirectory)
        sessionLifetime = try container.decodeIfPresent(Double.self, forKey: .sessionLifetime)
        // Checked here, so that validating a manifest finds what loading the module would.
        if users.isEmpty, usersFile == nil {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath + [ConfigurationKey.users],
                debugDescription: "no users configured: give \"users\" (at least one) or \"usersFile\""))
        }
        if let sessionLifetime, !(sessionLifetime.isFinite && sessionLifetime > 0 && sessionLifetime <= Self.maximumSessionLifetime) {
            throw DecodingError.dataCorruptedError(
                forKey: .sessionLifetime, in: container,
                debugDescription: "sessionLifetime must be a number of seconds above 0 and at most "
                    + "\(Int(Self.maximumSessionLifetime)) (366 days), not \(sessionLifetime)")
        }
        if let stateDirectory, stateDirectory.isEmpty {
            throw DecodingError.dataCorruptedError(forKey: .stateDirectory, in: container,
                                                   debugDescription: "stateDirectory must not be empty")
        }
        var seen = Set<String>()
        for (index, user) in users.enumerated() where !seen.insert(user.username).inserted {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath + [ConfigurationKey.users, ConfigurationKey(intValue: index)],
                debugDescription: "duplicate username \"\(user.username)\""))
        }
    }
}

