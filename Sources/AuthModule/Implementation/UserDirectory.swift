import AuthInterface
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
import ModuleHostState

/// A configured user, validated.
struct UserEntry: Sendable, Equatable, CustomStringConvertible {
    let username: String
    let displayName: String
    let passwordHash: String

    var description: String { "UserEntry(\(username), passwordHash: <redacted>)" }
}

/// The validated users, looked up by exact username.
struct UserDirectory: Sendable {
    private let entries: [String: UserEntry]
    /// The configured hash of the costliest method and cost, against which unknown usernames are checked (and
    /// every user on a cheaper one, in addition to their own), so that whether a name is known does not show in
    /// the time a log-in takes, whatever methods and costs the configuration mixes.
    private let costliest: CostliestHash

    var usernames: [String] { entries.keys.sorted() }

    /// Validates `records` (at least one user, non-empty unique usernames, supported hashes).
    /// `source(index)` names a record in messages, e.g. "users[2]".
    init(records: [(source: String, record: AuthConfiguration.UserRecord)]) throws(AuthError) {
        guard !records.isEmpty else {
            throw AuthError(.invalidConfiguration, "no users configured: give \"users\" or \"usersFile\"")
        }
        var entries: [String: UserEntry] = [:]
        var firstSource: [String: String] = [:]
        for (source, record) in records {
            let username = record.username
            guard !username.allSatisfy(\.isWhitespace) else {
                throw AuthError(.invalidConfiguration, "\(source): username must not be empty")
            }
            if let earlier = firstSource[username] {
                throw AuthError(
                    .invalidConfiguration,
                    "\(source): duplicate username \"\(username)\" (already defined by \(earlier))"
                )
            }
            guard PasswordHasher.looksLikeSupportedHash(record.passwordHash) else {
                // Never echo the value: it might be a plaintext password.
                throw AuthError(
                    .invalidConfiguration,
                    "\(source) (\"\(username)\"): passwordHash is not a supported crypt(3) hash; expected a "
                        + "salted slow hash such as \"$y$...\" (yescrypt) or \"$6$...\" (sha512crypt), "
                        + "never a plaintext password"
                )
            }
            let displayName = record.displayName.flatMap { $0.isEmpty ? nil : $0 } ?? username
            firstSource[username] = source
            entries[username] = UserEntry(username: username, displayName: displayName, passwordHash: record.passwordHash)
        }
        self.entries = entries
        self.costliest = CostliestHash(candidates: records.map(\.record.passwordHash))
    }

    func entry(for username: String) -> UserEntry? {
        entries[username]
    }

    /// Checks the credentials. Every check costs at least one crypt(3) call of the costliest configured setting:
    /// an unknown username is checked against it, a known user on a cheaper setting against it as well as their
    /// own hash, so a known name takes no less time than an unknown one, and at most one cheap call more.
    func authenticate(username: String, password: String) throws(AuthError) -> UserEntry {
        guard PasswordHasher.isAvailable else {
            throw AuthError(.hashingUnavailable, "password hashes cannot be verified on this platform")
        }
        let costliest = costliest.hash
        guard let entry = entries[username] else {
            _ = PasswordHasher.verify(password, against: costliest)
            throw .unknownUser
        }
        let matches = PasswordHasher.verify(password, against: entry.passwordHash)
        if CostliestHash.setting(of: entry.passwordHash) != CostliestHash.setting(of: costliest) {
            _ = PasswordHasher.verify(password, against: costliest)
        }
        guard matches else {
            throw .wrongPassword
        }
        return entry
    }
}
