#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import ModuleHostSystemLibraries

#if !os(Windows)
extension PluginLoader {
    /// Opens `resolved` without blocking and checks what was opened: still the same path, a regular file, owned by
    /// this user or root, writable by neither group nor others. Returns the descriptor (the caller closes it) and
    /// the file's size.
    static func openChecked(_ resolved: String, library: String) throws(PluginError) -> (Int32, UInt64) {
        func refuse(_ code: PluginError.Code, _ message: String) -> PluginError {
            PluginError(code, library: library, message: message)
        }
        // O_NONBLOCK: opening a FIFO must not wait for a writer. O_NOFOLLOW: the resolved path has no symbolic
        // links, so one appearing now is an attack.
        let descriptor = openFile(resolved, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            throw refuse(.notFound, "cannot open \(resolved): \(String(cString: strerror(errno)))")
        }
        do throws(PluginError) {
            var status = stat()
            guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                throw refuse(.notARegularFile, "\(resolved) is not a regular file (\(kind(of: status.st_mode)))")
            }
            #if os(Linux)
            // Check containment again on what was opened, in case a directory on the path was swapped meanwhile.
            guard let opened = realPath("/proc/self/fd/\(descriptor)"), opened == resolved else {
                throw refuse(.escapesManifestDirectory, "\(library) changed while it was being checked; refusing to load it")
            }
            #endif
            if status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
                throw refuse(.unsafePermissions,
                             "\(resolved) can be written by group or others (mode \(String(status.st_mode & 0o777, radix: 8))); run chmod go-w on it")
            }
            if status.st_uid != getuid() && status.st_uid != 0 {
                throw refuse(.unsafePermissions, "\(resolved) is owned by another user (uid \(status.st_uid))")
            }
            guard Int(status.st_size) <= maximumLibrarySize else {
                throw refuse(.malformedLibrary, "\(resolved) is larger than \(maximumLibrarySize) bytes, too large for a plugin")
            }
            return (descriptor, UInt64(status.st_size))
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// What a file that is not a regular file is, for the message.
    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "not a plain file"
        }
    }

    /// Checks that the SHA-256 of the file open as `descriptor` is `expected` (lowercase hex).
    static func verifyChecksum(of descriptor: Int32, path: String, expected: String, library: String) throws(PluginError) {
        var contents = Data()
        var offset: off_t = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else {
                throw PluginError(.checksumMismatch, library: library, message: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            contents.append(contentsOf: buffer[..<got])
            offset += off_t(got)
        }
        guard let actual = SHA256Digest.hex(of: contents) else {
            throw PluginError(.checksumMismatch, library: library, message: "cannot compute the SHA-256 of \(path)")
        }
        guard actual == expected else {
            throw PluginError(.checksumMismatch, library: library,
                              message: "the SHA-256 of \(path) is \(actual), but the manifest expects \(expected); the library was not loaded")
        }
    }
}

/// `open(2)`, named apart from ``PluginLoader/open(_:sha256:manifestDirectory:)``.
private func openFile(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags)
}
#endif
