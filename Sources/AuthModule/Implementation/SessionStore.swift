import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and writes `session.json` in the state directory.
///
/// Writes are atomic: the JSON goes to a new temporary file in the same directory (created with
/// `O_CREAT | O_EXCL`, mode 0600), is fsync'ed and then renamed over `session.json`. A crash or
/// failure at any point leaves either the old or the new file, never a partial one. The state
/// directory is created with mode 0700.
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

    init(directory: URL, fault: Fault? = nil) {
        self.directory = directory
        self.fault = fault
    }

    var fileURL: URL { directory.appendingPathComponent(Self.fileName, isDirectory: false) }

    // MARK: Load

    func load() -> LoadResult {
        let path = fileURL.path
        let data: Data
        switch readFile(at: path) {
        case .missing:
            return .missing
        case .failure(let message):
            return .rejected(
                AuthDiagnostic(.warning, .sessionFileUnreadable, "cannot read session file \(path): \(message); not restoring a session"),
                isOurs: false
            )
        case .tooLarge:
            return .rejected(
                AuthDiagnostic(.warning, .sessionFileForeign, "\(path) is too large to be a session file; ignoring it"),
                isOurs: false
            )
        case .success(let bytes):
            data = bytes
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
        try createDirectory()

        var generator = SystemRandomNumberGenerator()
        let suffix = String(UInt64.random(in: .min ... .max, using: &generator), radix: 16)
        let temporaryPath = directory.appendingPathComponent(".\(Self.fileName).\(suffix).tmp").path
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw Self.posixError("cannot create a file in the state directory \(directory.path)")
        }
        var renamed = false
        defer {
            if !renamed { unlink(temporaryPath) }
        }
        do {
            defer { close(fd) }
            guard fchmod(fd, 0o600) == 0 else { throw Self.posixError("cannot set permissions of \(temporaryPath)") }
            try Self.writeAll(data, to: fd, path: temporaryPath)
            guard fsync(fd) == 0 else { throw Self.posixError("cannot sync \(temporaryPath)") }
        }
        if fault == .beforeRename {
            throw AuthError(.storageFailed, "injected failure before replacing \(fileURL.path)")
        }
        guard rename(temporaryPath, fileURL.path) == 0 else {
            throw Self.posixError("cannot replace \(fileURL.path)")
        }
        renamed = true
        syncDirectory()
    }

    /// Deletes the session file. A missing file is not an error.
    ///
    /// When the file cannot be deleted (e.g. the directory is read-only but the file is not),
    /// it is emptied instead so that no later run can restore the session, and the error says so.
    func delete() throws(AuthError) {
        let path = fileURL.path
        if unlink(path) == 0 || errno == ENOENT {
            syncDirectory()
            return
        }
        let error = Self.posixError("cannot delete the session file \(path)")
        if truncate(path, 0) == 0 {
            throw AuthError(.storageFailed, "\(error.message) (emptied it instead)")
        }
        throw error
    }

    /// Whether `name` is one of our temporary files.
    static func isTemporaryFileName(_ name: String) -> Bool {
        name.hasPrefix(".\(fileName).") && name.hasSuffix(".tmp")
    }

    /// Removes temporary files left behind by interrupted writes that are older than `age`
    /// seconds (younger ones may belong to a write in progress in another process). Best effort.
    func removeStaleTemporaryFiles(olderThan age: TimeInterval = 60) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { return }
        let limit = Date().addingTimeInterval(-age)
        for name in names where Self.isTemporaryFileName(name) {
            let path = directory.appendingPathComponent(name).path
            guard let modified = (try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                modified < limit
            else { continue }
            unlink(path)
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

    private func createDirectory() throws(AuthError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw AuthError(.storageFailed, "the state directory \(directory.path) is not a directory")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw AuthError(.storageFailed, "cannot create the state directory \(directory.path): \(error.localizedDescription)")
        }
        // The umask may have removed bits; make sure it is exactly 0700.
        guard chmod(directory.path, 0o700) == 0 else {
            throw Self.posixError("cannot set permissions of the state directory \(directory.path)")
        }
    }

    /// Makes the rename/unlink durable; best effort.
    private func syncDirectory() {
        let fd = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws(AuthError) {
        let result: AuthError? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return posixError("cannot write \(path)")
                }
                offset += written
            }
            return nil
        }
        if let result { throw result }
    }

    private enum ReadResult {
        case missing, tooLarge, failure(String), success(Data)
    }

    private func readFile(at path: String) -> ReadResult {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            let code = errno
            return code == ENOENT ? .missing : .failure(Self.errnoText(code))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Self.errnoText())
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > Self.maximumFileSize { return .tooLarge }
        }
        return .success(Data(bytes))
    }

    private static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// A `.storageFailed` error for the current `errno`, which is read before `what` is built
    /// (building the message may allocate and change `errno`).
    private static func posixError(_ what: @autoclosure () -> String, code: Int32 = errno) -> AuthError {
        AuthError(.storageFailed, "\(what()): \(errnoText(code))")
    }
}
