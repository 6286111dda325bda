#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost

/// The state directory's checks: what makes a folder one to keep state in.
extension StateFile {
    /// Checks the file's folder, and first the host's state folder that holds it when the file is a module's
    /// (``hostDirectory``): `false` when one does not exist; see `checkDirectory(_:)`.
    package func checkDirectory() throws(StateFileError) -> Bool {
        if let hostDirectory, try !checkDirectory(hostDirectory) { return false }
        return try checkDirectory(directory)
    }

    /// Checks a state directory: `false` when it does not exist; throws when it is a symbolic link, not a
    /// directory, owned by another user, or shared (see `sharing(_:)`). An existing folder's mode is never changed:
    /// one that is ours and not shared, but readable by others (a home or project folder, a web root), is used as it
    /// is and that is reported, since its other readers would lose access to it; the files in it are 0600, so they
    /// see only their names. Only a folder the app creates is made private (0700, by `createDirectory`).
    func checkDirectory(_ directory: URL) throws(StateFileError) -> Bool {
        let path = directory.path
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_DIRECTORY | O_NONBLOCK)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return false
            case ELOOP:
                throw StateFileError(.directoryUnavailable, path: path,
                                     message: "the state directory \(path) is a symbolic link; refusing to use it")
            case ENOTDIR:
                var status = stat()
                if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
                    throw StateFileError(.directoryUnavailable, path: path,
                                         message: "the state directory \(path) is a symbolic link; refusing to use it")
                }
                throw StateFileError(.directoryUnavailable, path: path, message: "the state directory \(path) is not a directory")
            default:
                throw StateFileError(.directoryUnavailable, path: path,
                                     message: "cannot open the state directory \(path): \(Self.reason())")
            }
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw StateFileError(.directoryUnavailable, path: path, message: "cannot check the state directory \(path): \(Self.reason())")
        }
        let euid = geteuid()
        guard status.st_uid == euid else {
            throw StateFileError(.directoryUnavailable, path: path,
                                 message: "the state directory \(path) is owned by another user (uid \(status.st_uid)), not by uid "
                                    + "\(euid); refusing to trust anything in it (remove it, or choose a state directory of your own)")
        }
        let mode = status.st_mode & 0o7777
        if let sharing = Self.sharing(mode) {
            throw StateFileError(.directoryUnavailable, path: path,
                                 message: "the state directory \(path) is shared (mode 0\(String(mode, radix: 8)): \(sharing)); "
                                    + "refusing to keep state in it or to change its mode. Choose a folder of your own, "
                                    + "such as a new folder inside it, which is created with mode 0700")
        }
        if mode & 0o077 != 0 {
            notice("the state directory \(path) is readable by other users (mode 0\(String(mode, radix: 8))); it is used as it is, "
                   + "since its mode is not this app's to change, and the files kept in it are 0600, so others see only their names")
        }
        return true
    }

    /// Why a folder of mode `mode` is shared with other users, or `nil` when it is not: sticky (like `/tmp`),
    /// set-group-ID (a group's shared folder), or writable by its group or others. Such a folder is someone
    /// else's too, so its mode is not the app's to change.
    static func sharing(_ mode: mode_t) -> String? {
        var reasons: [String] = []
        if mode & S_ISVTX != 0 { reasons.append("sticky, like /tmp") }
        if mode & S_ISGID != 0 { reasons.append("set-group-ID, like a group's shared folder") }
        switch mode & 0o022 {
        case 0o022: reasons.append("writable by its group and others")
        case 0o020: reasons.append("writable by its group")
        case 0o002: reasons.append("writable by others")
        default: break
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: ", ")
    }
}
