#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ModuleHost

/// A small file in a module's state directory, read with a size bound and replaced atomically.
///
/// Writes go to a new temporary file in the same directory (created with `O_CREAT | O_EXCL`, mode 0600),
/// are synced, then renamed over the target: an interruption at any point leaves the old file or the new
/// one, never a partial one. The directory is created with mode 0700. Symbolic links are not followed.
///
/// Nothing is trusted before it is checked: the state directory must be a real directory (not a symbolic link)
/// owned by the effective user and not shared (a sticky, set-group-ID, or group- or world-writable folder is
/// refused and left as it is; one that is ours and only readable by others is set to 0700 and the repair
/// reported); a state file must be a regular file (a FIFO, device or socket is refused
/// without blocking) owned by the effective user and writable by nobody else; a secret file also readable by
/// nobody else.
///
/// A module's file (``HostEnvironment/stateFile(_:of:maximumSize:)``) lives in the module's own folder inside the
/// host's state folder, `<state>/<module identifier>/<name>`; both folders are checked, and created, by these
/// rules. Until the module has a file of that name, a file left at `<state>/<name>` by a version that kept every
/// module's files in the state folder itself is read instead, and moved into the module's folder: see ``read()``.
public struct StateFile: Sendable {
    /// The last step of a write: puts the finished temporary file at `targetPath`, returning `false` (with `errno`
    /// set) on failure. The default is rename(2); tests pass a failing step to check that the old file survives.
    package typealias Replace = @Sendable (_ temporaryPath: String, _ targetPath: String) -> Bool

    /// rename(2).
    package static let rename: Replace = { temporaryPath, targetPath in SystemCalls.rename(temporaryPath, targetPath) == 0 }

    /// link(2), which fails with `EEXIST` instead of replacing: for files created once (a key), never replaced.
    package static let linkOnce: Replace = { temporaryPath, targetPath in
        let linked = link(temporaryPath, targetPath) == 0
        let saved = errno
        unlink(temporaryPath)
        errno = saved
        return linked
    }

    /// Where the file lives.
    package let url: URL
    /// The largest file ``read()`` accepts.
    package let maximumSize: Int
    /// Whether the file holds a secret: then it must not be readable by group or others either.
    package let isSecret: Bool
    /// For a module's file: the host's state folder, which holds the module's folder (the file's directory) and
    /// possibly a file of the same name from before modules had folders (`legacyURL`). `nil` for a file whose
    /// directory is the state folder itself.
    package let hostDirectory: URL?
    /// The context of the module instance the file belongs to; once that instance is released, the file refuses.
    package let owner: (any ModuleContext)?
    private let replace: Replace
    let notice: @Sendable (String) -> Void

    /// A state file at a path of the module's choosing, such as one its configuration names. A module's own
    /// folder in the host's state folder is ``HostEnvironment/stateFile(_:of:maximumSize:)``'s.
    ///
    /// - Parameters:
    ///   - url: Where the file lives.
    ///   - maximumSize: The largest file ``read()`` accepts, in bytes.
    ///   - owner: The context the module instance that uses the file was given. Once that instance is released,
    ///     ``read()``, ``write(_:)`` and ``remove()`` throw `StateFileError.Code.ownerReleased`, so an instance
    ///     that someone still holds cannot write over what the loaded instance writes. `nil` binds the file to
    ///     no instance.
    public init(url: URL, maximumSize: Int = 1 << 20, owner: (any ModuleContext)? = nil) {
        self.init(url: url, maximumSize: maximumSize, owner: owner, replace: Self.rename)
    }

    /// A state file whose writes end with `replace` instead of rename(2); `notice` hears of repairs (a state
    /// directory whose mode was set to 0700).
    /// `hostDirectory`: the host's state folder, when `url` is a module's file in its folder inside it.
    package init(url: URL, maximumSize: Int, isSecret: Bool = false, hostDirectory: URL? = nil,
                 owner: (any ModuleContext)? = nil, replace: @escaping Replace,
                 notice: @escaping @Sendable (String) -> Void = { _ in }) {
        self.owner = owner
        self.url = url
        self.maximumSize = maximumSize
        self.isSecret = isSecret
        self.hostDirectory = hostDirectory
        self.replace = replace
        self.notice = notice
    }

    var directory: URL { url.deletingLastPathComponent() }

    /// For a module's file, where a version that kept all modules' files in the host's state folder kept it:
    /// `<state>/<name>`. Never inside a module's folder, since a name holds no `/`.
    package var legacyURL: URL? {
        hostDirectory?.appendingPathComponent(url.lastPathComponent, isDirectory: false)
    }

    /// The file's content, or `nil` when there is no file (or no state directory).
    ///
    /// A module's file that does not exist yet is looked for where earlier versions kept it (`legacyURL`), so an
    /// upgrade loses nothing. That file is checked like any state file (regular, ours, closed to other writers,
    /// within the size limit) and then *moved* into the module's folder, with link(2) and unlink(2), rather than
    /// left in place for the next write to shadow. Moving is the safer choice: the old file stops being one that
    /// any module asking for the same name would find (the old layout recorded no owner, so the first module to
    /// read it claims it), a removed file (``remove()``, such as a revoked session) cannot come back from a stale
    /// copy, and link(2) never replaces a file the module wrote meanwhile (then that file is read). When the move
    /// cannot be made (the folder cannot be created, a file system without hard links), the old file is read
    /// where it is; the next write goes to the module's folder, and ``remove()`` deletes both. A folder at the old
    /// place is another module's folder, never a file of this one's, and is not read.
    ///
    /// - Returns: The content, or `nil` when there is no file.
    /// - Throws: `StateFileError` when the file or its folder cannot be trusted or read, is larger than the limit,
    ///   or belongs to a released instance (`ownerReleased`).
    public func read() throws(StateFileError) -> Data? {
        try checkOwner()
        if try checkDirectory(), let data = try readOwn() { return data }
        return try readLegacy()
    }

    private func readOwn() throws(StateFileError) -> Data? {
        try Self.readRegularFile(at: url.path, maximumSize: maximumSize) { status throws(StateFileError) in
            try trust(status, path: url.path)
        }
    }

    /// The file at `legacyURL`, moved into the module's folder if it can be; see ``read()``.
    private func readLegacy() throws(StateFileError) -> Data? {
        guard let hostDirectory, let legacy = legacyURL, try checkDirectory(hostDirectory) else { return nil }
        var status = stat()
        if lstat(legacy.path, &status) != 0 {
            if errno == ENOENT { return nil }
        } else if status.st_mode & S_IFMT == S_IFDIR {
            return nil
        }
        let path = legacy.path
        guard let data = try Self.readRegularFile(at: path, maximumSize: maximumSize, check: { status throws(StateFileError) in
            try trust(status, path: path)
        }) else {
            // Gone since it was found: another process of ours may have just moved it into the module's folder.
            return try checkDirectory() ? readOwn() : nil
        }
        do {
            try createDirectory()
        } catch {
            return data
        }
        guard link(path, url.path) == 0 else {
            // A file of the module's own appeared meanwhile (another process moved or wrote it): it wins.
            if errno == EEXIST, let own = try? readOwn() { return own }
            return data
        }
        unlink(path)
        syncDirectory(directory)
        syncDirectory(hostDirectory)
        notice("moved \(path), kept there by an earlier version, to \(url.path), the module's own folder")
        return data
    }

    /// The content of the regular file at `path`, or `nil` when there is none. Anything else (a FIFO, device,
    /// socket or symbolic link) is refused without blocking, and so is a file over `maximumSize` bytes, before
    /// reading it. `check` sees the opened file's status first. For files that are not state files, such as a
    /// module's configured users file.
    package static func readRegularFile(
        at path: String, maximumSize: Int, check: (stat) throws(StateFileError) -> Void = { _ in }
    ) throws(StateFileError) -> Data? {
        switch try RegularFile.read(atPath: path, limit: maximumSize, followingLinks: false, check: check) {
        case .success(let bytes):
            return Data(bytes)
        case .failure(.notFound):
            return nil
        case .failure(.notRegular(.other)):
            throw StateFileError(.unreadable, path: path, message: "\(path) is not a regular file; refusing to read it")
        case .failure(.notRegular(let kind)):
            let what = kind == .fifo ? "a FIFO" : kind == .characterDevice || kind == .blockDevice ? "a device" : kind.description
            throw StateFileError(.unreadable, path: path, message: "\(path) is \(what), not a regular file; refusing to read it")
        case .failure(.tooLarge):
            throw StateFileError(.tooLarge, path: path, message: "\(path) is larger than \(maximumSize) bytes, the limit for this file")
        case .failure(.unreadable(let reason)):
            throw StateFileError(.unreadable, path: path, message: "cannot read \(path): \(reason)")
        }
    }

    /// Refuses a file that someone else owns or can write (or, for a secret, read).
    private func trust(_ status: stat, path: String) throws(StateFileError) {
        let euid = geteuid()
        guard status.st_uid == euid else {
            throw StateFileError(.unreadable, path: path, message: "\(path) is owned by another user (uid \(status.st_uid)), "
                                 + "not by uid \(euid); refusing to trust it")
        }
        let forbidden: mode_t = isSecret ? 0o077 : 0o022
        guard status.st_mode & forbidden == 0 else {
            let mode = String(status.st_mode & 0o777, radix: 8)
            let what = isSecret ? "accessible" : "writable"
            throw StateFileError(.unreadable, path: path, message: "\(path) is \(what) by other users (mode 0\(mode)); refusing to trust it")
        }
    }

    /// Replaces the file's content atomically, creating the state directory (0700) if needed; the file is 0600.
    ///
    /// - Parameter data: The new content.
    /// - Throws: `StateFileError` when the folder cannot be used or the file cannot be written (the old content is
    ///   then intact), or when the file belongs to a released instance (`ownerReleased`).
    public func write(_ data: Data) throws(StateFileError) {
        try checkOwner()
        try createDirectory()
        var generator = SystemRandomNumberGenerator()
        let suffix = Hex.encode((0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let temporaryPath = directory.appendingPathComponent(".\(url.lastPathComponent).\(suffix).tmp").path
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw StateFileError(.writeFailed, path: url.path,
                                 message: "cannot create a file in the state directory \(directory.path): \(Self.reason())")
        }
        var renamed = false
        defer { if !renamed { unlink(temporaryPath) } }
        do {
            defer { close(fd) }
            guard fchmod(fd, 0o600) == 0 else { throw writeError("cannot set permissions of \(temporaryPath)") }
            try Self.writeAll(data, to: fd) { writeError("cannot write \(temporaryPath)") }
            guard fsync(fd) == 0 else { throw writeError("cannot sync \(temporaryPath)") }
        }
        guard replace(temporaryPath, url.path) else { throw writeError("cannot replace \(url.path)") }
        renamed = true
        syncDirectory(directory)
    }

    /// Deletes the file; a missing file is not an error. A module's file is deleted from the old place too
    /// (`legacyURL`, unless a folder is there), so that it cannot be read back from there.
    ///
    /// - Throws: `StateFileError` when the file cannot be deleted, or belongs to a released instance (`ownerReleased`).
    public func remove() throws(StateFileError) {
        try checkOwner()
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw StateFileError(.removeFailed, path: url.path, message: "cannot delete \(url.path): \(Self.reason())")
        }
        syncDirectory(directory)
        if let hostDirectory, let legacy = legacyURL {
            var status = stat()
            guard lstat(legacy.path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else { return }
            guard unlink(legacy.path) == 0 || errno == ENOENT else {
                throw StateFileError(.removeFailed, path: legacy.path, message: "cannot delete \(legacy.path): \(Self.reason())")
            }
            syncDirectory(hostDirectory)
        }
    }

    /// Deletes temporary files that interrupted writes of this file left behind, if older than `age` seconds
    /// (younger ones may belong to a write in progress in another process).
    package func removeStaleTemporaryFiles(olderThan age: TimeInterval = 60) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { return }
        let limit = Date().addingTimeInterval(-age)
        for name in names where name.hasPrefix(".\(url.lastPathComponent).") && name.hasSuffix(".tmp") {
            let path = directory.appendingPathComponent(name).path
            guard let modified = (try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                  modified < limit else { continue }
            unlink(path)
        }
    }

    /// Throws `ownerReleased` once the module instance the file belongs to was released.
    private func checkOwner() throws(StateFileError) {
        guard let owner, owner.isReleased else { return }
        let module = owner.owningModule.map { "\"\($0)\"" } ?? "the module"
        throw StateFileError(.ownerReleased, path: url.path,
                             message: "\(url.path) belongs to an instance of \(module) that was released; it can no longer "
                                + "read or write it, so that it cannot overwrite what the loaded instance writes")
    }

    private func writeError(_ what: String) -> StateFileError {
        StateFileError(.writeFailed, path: url.path, message: "\(what): \(Self.reason())")
    }

    /// Creates the host's state folder (for a module's file) and the file's folder, as far as they are missing.
    private func createDirectory() throws(StateFileError) {
        if try checkDirectory() { return }
        if let hostDirectory { try createDirectory(hostDirectory) }
        try createDirectory(directory)
    }

    /// Creates `directory` (mode 0700) and its missing parents, unless it exists; checks it either way.
    private func createDirectory(_ directory: URL) throws(StateFileError) {
        if try checkDirectory(directory) { return }
        let path = directory.path
        let parent = directory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw StateFileError(.directoryUnavailable, path: path,
                                 message: "cannot create the state directory \(path): \(error)")
        }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw StateFileError(.directoryUnavailable, path: path,
                                 message: "cannot create the state directory \(path): \(Self.reason())")
        }
        // Whoever made it (another process of ours, racing, or someone else): check it; the umask may also have
        // removed bits, which the check does not mind.
        guard try checkDirectory(directory) else {
            throw StateFileError(.directoryUnavailable, path: path, message: "the state directory \(path) disappeared")
        }
    }

    /// Makes a rename, link or unlink in `directory` durable; best effort.
    private func syncDirectory(_ directory: URL) {
        let fd = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func writeAll(_ data: Data, to fd: Int32, error: () -> StateFileError) throws(StateFileError) {
        let failed: Bool = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return false }
            var offset = 0
            while offset < buffer.count {
                let written = SystemCalls.write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                offset += written
            }
            return false
        }
        if failed { throw error() }
    }

    static func reason() -> String {
        String(cString: strerror(errno))
    }
}
