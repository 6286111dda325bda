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
    private let file: StateFile

    /// The session file in `directory`. `replace` is the last step of a write (rename(2) unless a test fails it).
    init(directory: URL, replace: @escaping StateFile.Replace = StateFile.rename) {
        self.directory = directory
        self.file = StateFile(url: directory.appendingPathComponent(Self.fileName, isDirectory: false),
                              maximumSize: Self.maximumFileSize, replace: replace)
    }

    var fileURL: URL { file.url }

    // MARK: Load

    func load() -> LoadResult {
        let data: Data
        do {
            guard let contents = try file.read() else { return .missing }
            data = contents
        } catch where error.code == .tooLarge {
            return .rejected(
                AuthDiagnostic(.warning, .sessionFileForeign, "\(fileURL.path) is too large to be a session file; ignoring it"),
                isOurs: false
            )
        } catch {
            return .rejected(
                AuthDiagnostic(.warning, .sessionFileUnreadable, "\(error.message); not restoring a session"),
                isOurs: false
            )
        }
        do throws(StoredSession.Problem) {
            return .loaded(try StoredSession.decode(data))
        } catch {
            return rejection(for: error)
        }
    }

    /// What to tell the user about a file that is not a usable session, and whether it is ours to delete.
    private func rejection(for problem: StoredSession.Problem) -> LoadResult {
        let path = fileURL.path
        switch problem {
        case .notJSON:
            return .rejected(
                AuthDiagnostic(.warning, .sessionFileCorrupted, "session file \(path) is not valid JSON; ignoring it"),
                isOurs: true
            )
        case .foreign:
            return .rejected(
                AuthDiagnostic(
                    .warning,
                    .sessionFileForeign,
                    "\(path) is not an \(StoredSession.format) file; ignoring it (it will be replaced at the next log-in)"
                ),
                isOurs: false
            )
        case .unsupportedVersion(let found):
            return .rejected(
                AuthDiagnostic(
                    .warning,
                    .sessionFileUnsupportedVersion,
                    "session file \(path) has version \(found), expected \(StoredSession.currentVersion); ignoring it"
                ),
                isOurs: true
            )
        case .damaged(let detail):
            let reason = detail.map { " (\($0))" } ?? ""
            return .rejected(
                AuthDiagnostic(.warning, .sessionFileCorrupted, "session file \(path) is damaged\(reason); ignoring it"),
                isOurs: true
            )
        }
    }

    // MARK: Save

    func save(_ session: StoredSession) throws(AuthError) {
        let data: Data
        do {
            data = try session.encoded()
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
}
