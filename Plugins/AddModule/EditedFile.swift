import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A user's file that `add-module` edits: through its link, keeping its mode, never one that is read-only.
enum EditedFile {
    /// The file `url` names, its links followed; checked before anything is written.
    ///
    /// - Parameters:
    ///   - url: The file in the package (`Package.swift`, `modules.json`).
    ///   - mustExist: Whether a missing file is refused; otherwise it is created.
    /// - Returns: The file to read and to replace.
    /// - Throws: `AddModuleError` for a link to nothing, a missing file that must exist, or a read-only file.
    static func target(of url: URL, mustExist: Bool) throws -> URL {
        let name = url.lastPathComponent
        let path = url.path(percentEncoded: false)
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFLNK) {
            let resolved = url.resolvingSymlinksInPath()
            guard FileManager.default.fileExists(atPath: resolved.path(percentEncoded: false)) else {
                let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "a file"
                throw AddModuleError("\(name) is a link to \(destination), which does not exist; nothing was written")
            }
            return try target(of: resolved, mustExist: mustExist)
        }
        guard FileManager.default.fileExists(atPath: path) else {
            if mustExist { throw AddModuleError("\(name) does not exist; nothing was written") }
            return url
        }
        // Root may write to anything: the file's own mode says whether it is meant to be changed.
        guard stat(path, &status) == 0, status.st_mode & 0o222 != 0, access(path, W_OK) == 0 else {
            throw AddModuleError("\(name) is read-only; make it writable to add a module (nothing was written)")
        }
        return url
    }

    /// A file's new contents, written beside it and not yet renamed over it.
    struct Prepared {
        let url: URL
        let temporaryPath: String

        /// Renames the new contents over the file.
        func commit() throws {
            guard rename(temporaryPath, url.path(percentEncoded: false)) == 0 else {
                let reason = String(cString: strerror(errno))
                discard()
                throw AddModuleError("cannot replace \(url.lastPathComponent): \(reason)")
            }
        }

        /// Removes the new contents; the file stays as it was.
        func discard() { unlink(temporaryPath) }
    }

    /// Writes `data` beside the file at `url` (a new file, renamed over it by ``Prepared/commit()``), with the file's
    /// mode; a new file gets the default mode. It is created private and gets the mode only once it is written and
    /// synced, so no other user can open it meanwhile (modules.json may hold password hashes).
    static func prepare(_ url: URL, with data: Data) throws -> Prepared {
        let path = url.path(percentEncoded: false)
        var status = stat()
        let mode = stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0o666 & ~Self.creationMask
        let temporary = url.deletingLastPathComponent().appending(path: ".\(url.lastPathComponent).add-module-\(getpid())")
        let temporaryPath = temporary.path(percentEncoded: false)
        unlink(temporaryPath)
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw AddModuleError("cannot write beside \(url.lastPathComponent) (\(String(cString: strerror(errno)))); nothing was written")
        }
        let finished = writeAll(data, to: descriptor) && fchmod(descriptor, mode) == 0 && fsync(descriptor) == 0
        close(descriptor)
        guard finished else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw AddModuleError("cannot write beside \(url.lastPathComponent) (\(reason)); nothing was written")
        }
        return Prepared(url: url, temporaryPath: temporaryPath)
    }

    /// The process's file mode creation mask.
    private static var creationMask: mode_t {
        let mask = umask(0o022)
        _ = umask(mask)
        return mask
    }

    /// Writes all of `data` to `descriptor`; whether it did.
    private static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return true }
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, base + offset, bytes.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }
}
