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

/// Reading a state file: its own, or the one an earlier version left in the state folder; checked before trusted.
extension StateFile {
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

    func readOwn() throws(StateFileError) -> Data? {
        try Self.readRegularFile(at: url.path, maximumSize: maximumSize) { status throws(StateFileError) in
            try trust(status, path: url.path)
        }
    }

    /// The file at `legacyURL`, moved into the module's folder if it can be; see ``read()``.
    func readLegacy() throws(StateFileError) -> Data? {
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
    func trust(_ status: stat, path: String) throws(StateFileError) {
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
}
