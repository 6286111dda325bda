import AuthInterface
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
import ModuleHostState

/// The configuration with paths resolved and users validated.
struct ResolvedAuthConfiguration: Sendable {
    let users: UserDirectory
    /// Where `session.json` and `session.key` live.
    let stateDirectory: URL
    let sessionLifetime: TimeInterval
    /// The host's state folder when ``stateDirectory`` is the module's folder inside it (no `stateDirectory`
    /// configured): files of earlier versions, kept in the state folder itself, are read from there and moved.
    var hostStateDirectory: URL? = nil
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
    ///   - hostStateDirectory: the host's state folder; when the configuration names no state directory, the
    ///     session is kept in the module's folder inside it, `<hostStateDirectory>/com.modulehost.auth`. When
    ///     `nil`, the host's state folder is `.app-shell` in the working directory.
    ///   - workingDirectory: the default state folder `.app-shell` is placed in it; the
    ///     process's working directory when `nil`.
    func resolve(
        baseDirectory: URL, hostStateDirectory: URL? = nil, workingDirectory: URL? = nil
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

        if let stateDirectory {
            guard !stateDirectory.isEmpty else {
                throw AuthError(.invalidConfiguration, "stateDirectory must not be empty")
            }
            let stateURL = Self.resolve(path: stateDirectory, against: baseDirectory)
            return ResolvedAuthConfiguration(users: directory, stateDirectory: stateURL.standardizedFileURL, sessionLifetime: lifetime)
        }
        let host: URL
        if let hostStateDirectory {
            host = hostStateDirectory.standardizedFileURL
        } else {
            let cwd = workingDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            host = cwd.appendingPathComponent(Self.defaultStateDirectory, isDirectory: true).standardizedFileURL
        }
        return ResolvedAuthConfiguration(users: directory, stateDirectory: host.appendingPathComponent(ModuleIdentifier.auth.rawValue, isDirectory: true),
                                         sessionLifetime: lifetime, hostStateDirectory: host)
    }

    /// `~` or `~/rest` with the home folder (`HOME`) in place of `~`; any other path as it is.
    private static func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    private static func resolve(path: String, against base: URL) -> URL {
        let expanded = expandingTilde(path)
        if expanded.hasPrefix("/") {
            return URL(fileURLWithPath: expanded)
        }
        return base.appendingPathComponent(expanded)
    }

    /// The largest users file read: 4 MiB, some 20,000 users.
    static let maximumUsersFileSize = 4 << 20

    private struct UsersFileObject: Decodable {
        let users: [UserRecord]
    }

    private static func readUsersFile(at url: URL) throws(AuthError) -> [UserRecord] {
        let contents: Data?
        do throws(StateFileError) {
            // Size checked before reading; a FIFO or device is refused without blocking.
            contents = try StateFile.readRegularFile(at: url.path, maximumSize: Self.maximumUsersFileSize)
        } catch {
            throw AuthError(.invalidConfiguration, "usersFile: \(error.message)")
        }
        guard let data = contents else {
            throw AuthError(.invalidConfiguration, "usersFile \(url.path) cannot be read: there is no such file")
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
