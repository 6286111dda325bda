import AuthInterface
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
import ModuleHostState

/// Reads and writes `session.json` in the state directory.
///
/// The file mechanics are ModuleHost's `StateFile`: writes are atomic (a new 0600 temporary file in the
/// same directory, synced, then renamed over `session.json`), so a failure at any point leaves either the
/// old or the new file; the state directory is created with mode 0700, and neither it nor the file is trusted
/// unless owned by the effective user and closed to other writers (see `StateFile`).
///
/// Sessions are signed: `session.key` (32 random bytes, mode 0600, created at the first log-in) keys an
/// HMAC-SHA256 over the session, and a session whose MAC does not verify is rejected as forged. Ending a session
/// deletes the key with the file (``revoke()``), so a copy of the file taken before is rejected too.
struct SessionStore: Sendable {
    static let fileName = "session.json"
    /// Larger files are not session files.
    static let maximumFileSize = 64 * 1024
    /// The signing key's file, beside the session.
    static let keyFileName = "session.key"

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
    private let keyFile: StateFile
    /// What the state files reported of their folders (one readable by others, used as it is), until taken.
    private let notices: Locked<[String]>

    /// The session file in `directory`. `replace` is the last step of a write (rename(2) unless a test fails it).
    /// `hostDirectory`: the host's state folder when `directory` is the module's folder inside it, where earlier
    /// versions kept both files (they are read from there and moved; see `StateFile.read()`). `owner`: the module
    /// instance's context, after whose release both files refuse.
    init(directory: URL, hostDirectory: URL? = nil, owner: (any ModuleContext)? = nil,
         replace: @escaping StateFile.Replace = StateFile.rename) {
        let notices = Locked<[String]>([])
        let report: @Sendable (String) -> Void = { message in notices.withLock { $0.append(message) } }
        self.directory = directory
        self.notices = notices
        self.file = StateFile(url: directory.appendingPathComponent(Self.fileName, isDirectory: false),
                              maximumSize: Self.maximumFileSize, hostDirectory: hostDirectory, owner: owner,
                              replace: replace, notice: report)
        self.keyFile = StateFile(url: directory.appendingPathComponent(Self.keyFileName, isDirectory: false),
                                 maximumSize: StateKey.byteCount, isSecret: true, hostDirectory: hostDirectory,
                                 owner: owner, replace: StateFile.linkOnce, notice: report)
    }

    /// What the state files reported since the last call (each once), as diagnostics.
    func takeNotices() -> [AuthDiagnostic] {
        notices.withLock { pending in
            defer { pending.removeAll() }
            return pending.map { AuthDiagnostic(.info, .stateDirectoryRepaired, $0) }
        }
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
        let session: StoredSession
        do throws(StoredSession.Problem) {
            session = try StoredSession.decode(data)
        } catch {
            return rejection(for: error)
        }
        return verify(session)
    }

    /// The session if its MAC is the state directory key's; otherwise a rejection (the file is deleted).
    private func verify(_ session: StoredSession) -> LoadResult {
        let key: StateKey?
        do {
            key = try StateKey.load(from: keyFile)
        } catch {
            return .rejected(AuthDiagnostic(.warning, .sessionFileUnreadable, "\(error.message); not restoring a session"),
                             isOurs: false)
        }
        guard let key, session.isSigned(by: key) else {
            return .rejected(
                AuthDiagnostic(
                    .warning,
                    .sessionFileForged,
                    "the session file \(fileURL.path) is not signed with this state directory's key "
                        + "(forged, edited, or copied from elsewhere); ignoring it"
                ),
                isOurs: true
            )
        }
        return .loaded(session)
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
        let key: StateKey
        do {
            key = try StateKey.loadOrCreate(from: keyFile)
        } catch {
            throw AuthError(.storageFailed, error.message)
        }
        guard let signed = session.signed(with: key) else {
            throw AuthError(.hashingUnavailable, "the system's SHA-256 (libcrypto) is unavailable; cannot sign the session")
        }
        let data: Data
        do {
            data = try signed.encoded()
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

    /// Revokes every session signed so far: deletes the signing key, then the session file. A copy of the file
    /// taken earlier (a backup, a sync) no longer verifies; the next log-in creates a new key. Missing files are
    /// not an error.
    func revoke() throws(AuthError) {
        do {
            try keyFile.remove()
        } catch {
            throw AuthError(.storageFailed, "its signing key could not be deleted: \(error.message)")
        }
        try delete()
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
