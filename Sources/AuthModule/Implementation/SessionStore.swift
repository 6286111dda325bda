import AuthInterface
import Foundation
import ModuleHost

/// Reads and writes `session.json` in the state directory.
///
/// The file mechanics are ModuleHost's `StateFile`: writes are atomic (a new 0600 temporary file in the
/// same directory, synced, then renamed over `session.json`), so a failure at any point leaves either the
/// old or the new file; the state directory is created with mode 0700.
struct SessionStore: Sendable {
    static let fileName = "session.json"
    /// Larger files are not session files.
    static let maximumFileSize = 64 * 1024

    /// Failure points for tests of the atomic write.
    enum Fault: Sendable, Equatable {
        /// Fail after the temporary file is written and synced, before the rename.
        case beforeRename
    }

    enum LoadResult: Sendable {
        /// There is no session file.
        case missing
        /// A well-formed session of the current version (not yet checked for expiry or user).
        case loaded(StoredSession)
        /// The file cannot be used. `isOurs`: it is (or claims to be) one of our session files,
        /// so it may be deleted; foreign files are left alone and replaced at the next log-in.
        case rejected(AuthDiagnostic, isOurs: Bool)
    }

    let directory: URL
    var fault: Fault?
    private let file: StateFile

    init(directory: URL, fault: Fault? = nil) {
        self.directory = directory
        self.fault = fault
        self.file = StateFile(url: directory.appendingPathComponent(Self.fileName, isDirectory: false),
                              maximumSize: Self.maximumFileSize, failBeforeRename: fault == .beforeRename)
    }

    var fileURL: URL { directory.appendingPathComponent(Self.fileName, isDirectory: false) }

    // MARK: Load

    func load() -> LoadResult {
        let path = fileURL.path
        let data: Data
        do {
            guard let contents = try file.read() else { return .missing }
            data = contents
        } catch where error.code == .tooLarge {
            return .rejected(
                AuthDiagnostic(.warning, .sessionFileForeign, "\(path) is too large to be a session file; ignoring it"),
                isOurs: false
            )
        } catch {
            return .rejected(
                AuthDiagnostic(.warning, .sessionFileUnreadable, "\(error.message); not restoring a session"),
                isOurs: false
            )
        }

        guard let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return .rejected(
                AuthDiagnostic(.warning, .sessionFileCorrupted, "session file \(path) is not valid JSON; ignoring it"),
                isOurs: true
            )
        }
        guard let object = json as? [String: Any], let format = object["format"] as? String, format == StoredSession.format else {
            return .rejected(
                AuthDiagnostic(
                    .warning,
                    .sessionFileForeign,
                    "\(path) is not an \(StoredSession.format) file; ignoring it (it will be replaced at the next log-in)"
                ),
                isOurs: false
            )
        }
        guard let version = object["version"] as? Int, version == StoredSession.currentVersion else {
            let found = object["version"].map { "\($0)" } ?? "none"
            return .rejected(
                AuthDiagnostic(
                    .warning,
                    .sessionFileUnsupportedVersion,
                    "session file \(path) has version \(found), expected \(StoredSession.currentVersion); ignoring it"
                ),
                isOurs: true
            )
        }
        do {
            return .loaded(try Self.decoder.decode(StoredSession.self, from: data))
        } catch let error as DecodingError {
            return .rejected(
                AuthDiagnostic(.warning, .sessionFileCorrupted, "session file \(path) is damaged (\(describe(error))); ignoring it"),
                isOurs: true
            )
        } catch {
            return .rejected(
                AuthDiagnostic(.warning, .sessionFileCorrupted, "session file \(path) is damaged; ignoring it"),
                isOurs: true
            )
        }
    }

    // MARK: Save

    func save(_ session: StoredSession) throws(AuthError) {
        let data: Data
        do {
            data = try Self.encoder.encode(session)
        } catch {
            throw AuthError(.storageFailed, "cannot encode the session")
        }
        do {
            try file.write(data)
        } catch {
            throw AuthError(.storageFailed, error.message)
        }
    }

    /// Deletes temporary files left by interrupted writes, if older than `age` seconds.
    func removeStaleTemporaryFiles(olderThan age: TimeInterval = 60) {
        file.removeStaleTemporaryFiles(olderThan: age)
    }

    /// Deletes the session file. A missing file is not an error.
    func delete() throws(AuthError) {
        do {
            try file.remove()
        } catch {
            throw AuthError(.storageFailed, error.message)
        }
    }

    // MARK: Helpers

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}
