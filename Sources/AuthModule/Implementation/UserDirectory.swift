import AuthInterface
import Foundation
import ModuleHost

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
    /// The setting used to spend the same time on unknown usernames as on known ones: the first
    /// user's hash, so the method and cost match a real user's.
    private let dummyHash: String

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
            guard !username.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
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
        self.dummyHash = records[0].record.passwordHash
    }

    func entry(for username: String) -> UserEntry? {
        entries[username]
    }

    /// Checks the credentials. Unknown usernames cost one crypt(3) call like known ones.
    func authenticate(username: String, password: String) throws(AuthError) -> UserEntry {
        guard PasswordHasher.isAvailable else {
            throw AuthError(.hashingUnavailable, "password hashes cannot be verified on this platform")
        }
        guard let entry = entries[username] else {
            _ = PasswordHasher.verify(password, against: dummyHash)
            throw .unknownUser
        }
        guard PasswordHasher.verify(password, against: entry.passwordHash) else {
            throw .wrongPassword
        }
        return entry
    }
}

/// The configuration with paths resolved and users validated.
struct ResolvedAuthConfiguration: Sendable {
    let users: UserDirectory
    let stateDirectory: URL
    let sessionLifetime: TimeInterval
}

extension AuthConfiguration {
    /// Decodes a configuration from JSON; errors name the coding path.
    static func decode(from data: Data) throws(AuthError) -> AuthConfiguration {
        do {
            return try JSONDecoder().decode(AuthConfiguration.self, from: data)
        } catch let error as DecodingError {
            throw AuthError(.invalidConfiguration, "auth configuration: \(describe(error))")
        } catch {
            throw AuthError(.invalidConfiguration, "auth configuration: \(error)")
        }
    }

    /// Validates the configuration, reads `usersFile` and resolves relative paths.
    ///
    /// - Parameters:
    ///   - baseDirectory: relative `usersFile` and `stateDirectory` paths are resolved against it.
    ///   - workingDirectory: the default state directory `.app-shell` is placed in it; the
    ///     process's working directory when `nil`.
    ///   - defaultStateDirectory: used when the configuration names none (the host's state directory);
    ///     when `nil`, `.app-shell` in the working directory.
    func resolve(
        baseDirectory: URL, defaultStateDirectory: URL? = nil, workingDirectory: URL? = nil
    ) throws(AuthError) -> ResolvedAuthConfiguration {
        var records: [(source: String, record: UserRecord)] = users.enumerated().map { ("users[\($0.offset)]", $0.element) }
        if let usersFile {
            let url = Self.resolve(path: usersFile, against: baseDirectory)
            let fileUsers = try Self.readUsersFile(at: url)
            records += fileUsers.enumerated().map { ("usersFile \(url.path) users[\($0.offset)]", $0.element) }
        }
        let directory = try UserDirectory(records: records)

        let lifetime = sessionLifetime ?? Self.defaultSessionLifetime
        guard lifetime.isFinite, lifetime > 0, lifetime <= Self.maximumSessionLifetime else {
            throw AuthError(.invalidConfiguration,
                            "sessionLifetime must be a number of seconds above 0 and at most \(Int(Self.maximumSessionLifetime)) (366 days), not \(lifetime)")
        }

        let stateURL: URL
        if let stateDirectory {
            guard !stateDirectory.isEmpty else {
                throw AuthError(.invalidConfiguration, "stateDirectory must not be empty")
            }
            stateURL = Self.resolve(path: stateDirectory, against: baseDirectory)
        } else if let defaultStateDirectory {
            stateURL = defaultStateDirectory
        } else {
            let cwd = workingDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            stateURL = cwd.appendingPathComponent(Self.defaultStateDirectory, isDirectory: true)
        }
        return ResolvedAuthConfiguration(users: directory, stateDirectory: stateURL.standardizedFileURL, sessionLifetime: lifetime)
    }

    private static func resolve(path: String, against base: URL) -> URL {
        let expanded = (path as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") {
            return URL(fileURLWithPath: expanded)
        }
        return base.appendingPathComponent(expanded)
    }

    private struct UsersFileObject: Decodable {
        let users: [UserRecord]
    }

    private static func readUsersFile(at url: URL) throws(AuthError) -> [UserRecord] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw AuthError(.invalidConfiguration, "usersFile \(url.path) cannot be read: \(error.localizedDescription)")
        }
        let decoder = JSONDecoder()
        let isArray = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "[")
        do {
            if isArray {
                return try decoder.decode([UserRecord].self, from: data)
            }
            return try decoder.decode(UsersFileObject.self, from: data).users
        } catch let error as DecodingError {
            throw AuthError(
                .invalidConfiguration,
                "usersFile \(url.path) must hold a users array or {\"users\": [...]}: \(describe(error))"
            )
        } catch {
            throw AuthError(.invalidConfiguration, "usersFile \(url.path): \(error)")
        }
    }
}

/// "at users[1].passwordHash: expected String" style text for a decoding error.
func describe(_ error: DecodingError) -> String {
    func path(_ codingPath: [any CodingKey]) -> String {
        let text = CodingPathText.path(codingPath)
        return text.isEmpty ? "top level" : text
    }
    switch error {
    case .typeMismatch(let type, let context):
        return "at \(path(context.codingPath)): expected \(type): \(context.debugDescription)"
    case .valueNotFound(let type, let context):
        return "at \(path(context.codingPath)): missing \(type) value"
    case .keyNotFound(let key, let context):
        return "at \(path(context.codingPath + [key])): required key \"\(key.stringValue)\" is missing"
    case .dataCorrupted(let context):
        return "at \(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
        return "\(error)"
    }
}
