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
    /// directory, owned by another user, or shared (see `sharing(_:)`); its mode is then left alone. Ours, not
    /// shared, but readable by others: set to 0700, and the repair reported.
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
            guard fchmod(fd, 0o700) == 0 else {
                throw StateFileError(.directoryUnavailable, path: path,
                                     message: "the state directory \(path) is open to other users (mode 0\(String(mode, radix: 8))) "
                                        + "and its mode cannot be set to 0700: \(Self.reason())")
            }
            notice("the state directory \(path) was readable by other users (mode 0\(String(mode, radix: 8))); its mode is now 0700")
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
