import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Loads plugin libraries named in manifests, after checking that loading them is safe.
///
/// The checks, in order, all before the library's code can run: the path stays inside the manifest's folder
/// (after resolving `..` and symbolic links); it is a regular file, owned by this user or root, that neither
/// group nor others may write; its SHA-256 matches the manifest's `sha256` when one is given. The file is
/// opened once and every check, the checksum and (on Linux) `dlopen` itself use that descriptor, so the
/// file cannot be swapped between check and load. Libraries stay loaded for the life of the process:
/// Swift type metadata cannot be unloaded.
enum PluginLoader {
    /// The largest library hashed; a plugin is a few megabytes.
    static let maximumLibrarySize = 512 << 20

    /// Libraries already loaded, by resolved path, with the descriptor each was loaded through. The descriptors
    /// stay open for the life of the process: on Linux the loader knows a library by its `/proc/self/fd/N` name,
    /// so a closed descriptor's number, reused by the next plugin, would make `dlopen` return the old library.
    private static let loaded = Locked<[String: Int32]>([:])

    /// Checks and loads `library` (relative to `manifestDirectory` unless absolute); returns its resolved path.
    static func load(_ library: String, sha256: String?, manifestDirectory: URL) throws(PluginError) -> String {
        #if os(Windows)
        throw PluginError(.unsupportedPlatform, library: library, message: "plugins are not supported on this platform")
        #else
        if let sha256, !SHA256Digest.isWellFormed(sha256) {
            throw PluginError(.invalidChecksum, library: library, message: "sha256 must be 64 hexadecimal digits, found \"\(sha256)\"")
        }
        let resolved = try containedPath(of: library, in: manifestDirectory)
        if loaded.withLock({ $0[resolved] != nil }) { return resolved }
        let descriptor = try openChecked(resolved, library: library)
        var keepOpen = false
        defer { if !keepOpen { close(descriptor) } }
        if let sha256 {
            try verifyChecksum(of: descriptor, path: resolved, expected: sha256.lowercased(), library: library)
        }
        try dynamicallyLoad(descriptor, path: resolved, library: library)
        keepOpen = true
        loaded.withLock { $0[resolved] = descriptor }
        return resolved
        #endif
    }

    #if !os(Windows)
    /// The library's real path, which must lie inside the manifest's folder (after `..` and symbolic links).
    private static func containedPath(of library: String, in manifestDirectory: URL) throws(PluginError) -> String {
        func refuse(_ code: PluginError.Code, _ message: String) -> PluginError {
            PluginError(code, library: library, message: message)
        }
        let candidate = library.hasPrefix("/") ? library : manifestDirectory.appendingPathComponent(library).path
        guard let directory = realPath(manifestDirectory.path) else {
            throw refuse(.notFound, "the manifest's folder \(manifestDirectory.path) cannot be resolved")
        }
        var linkStatus = stat()
        guard lstat(candidate, &linkStatus) == 0 else {
            throw refuse(.notFound, "no plugin library at \(candidate)")
        }
        guard let resolved = realPath(candidate) else {
            throw refuse(.notFound, "the plugin library path \(candidate) cannot be resolved (a dangling symbolic link?)")
        }
        guard resolved.hasPrefix(directory.hasSuffix("/") ? directory : directory + "/") else {
            let lexical = URL(fileURLWithPath: candidate).standardizedFileURL.path
            let how = lexical.hasPrefix(directory + "/") || lexical.hasPrefix(manifestDirectory.standardizedFileURL.path + "/")
                ? "through a symbolic link" : "through \"..\" or an absolute path"
            throw refuse(.escapesManifestDirectory,
                         "\(library) leads \(how) to \(resolved), outside the manifest's folder \(directory); plugins must live inside it")
        }
        return resolved
    }

    /// Opens `resolved` and checks what was opened: still the same path, a regular file, owned by this user or
    /// root, writable by neither group nor others. Returns the descriptor, which the caller closes.
    private static func openChecked(_ resolved: String, library: String) throws(PluginError) -> Int32 {
        func refuse(_ code: PluginError.Code, _ message: String) -> PluginError {
            PluginError(code, library: library, message: message)
        }
        // O_NOFOLLOW: the resolved path has no symbolic links, so one appearing now is an attack.
        let descriptor = open(resolved, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            throw refuse(.notFound, "cannot open \(resolved): \(String(cString: strerror(errno)))")
        }
        do throws(PluginError) {
            #if os(Linux)
            // Check containment again on what was opened, in case a directory on the path was swapped meanwhile.
            guard let opened = realPath("/proc/self/fd/\(descriptor)"), opened == resolved else {
                throw refuse(.escapesManifestDirectory, "\(library) changed while it was being checked; refusing to load it")
            }
            #endif
            var status = stat()
            guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                throw refuse(.notARegularFile, "\(resolved) is not a regular file")
            }
            if status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
                throw refuse(.unsafePermissions,
                             "\(resolved) can be written by group or others (mode \(String(status.st_mode & 0o777, radix: 8))); run chmod go-w on it")
            }
            if status.st_uid != getuid() && status.st_uid != 0 {
                throw refuse(.unsafePermissions, "\(resolved) is owned by another user (uid \(status.st_uid))")
            }
            return descriptor
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Checks that the SHA-256 of the file open as `descriptor` is `expected` (lowercase hex).
    private static func verifyChecksum(of descriptor: Int32, path: String, expected: String, library: String) throws(PluginError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) <= maximumLibrarySize else {
            throw PluginError(.checksumMismatch, library: library,
                              message: "\(path) is larger than \(maximumLibrarySize) bytes, too large for a plugin")
        }
        let contents = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readDataToEndOfFile()
        guard let actual = SHA256Digest.hex(of: contents) else {
            throw PluginError(.checksumMismatch, library: library, message: "cannot compute the SHA-256 of \(path)")
        }
        guard actual == expected else {
            throw PluginError(.checksumMismatch, library: library,
                              message: "the SHA-256 of \(path) is \(actual), but the manifest expects \(expected); the library was not loaded")
        }
    }

    /// Loads the library through the descriptor that was checked (on Linux), so the file cannot be replaced in between.
    private static func dynamicallyLoad(_ descriptor: Int32, path: String, library: String) throws(PluginError) {
        #if os(Linux)
        let handle = dlopen("/proc/self/fd/\(descriptor)", RTLD_NOW | RTLD_LOCAL)
        #else
        let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)
        #endif
        guard handle != nil else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
            throw classify(reason, library: library, path: path)
        }
    }
    #endif

    /// Turns the dynamic loader's message into a refusal a user can act on.
    static func classify(_ reason: String, library: String, path: String) -> PluginError {
        let detail = reason.replacingOccurrences(of: #"/proc/self/fd/\d+"#, with: path, options: .regularExpression)
        if detail.contains("wrong ELF class") || detail.contains("ELF file OS ABI") || detail.contains("machine")
            || detail.contains("incompatible architecture") || detail.contains("mach-o file, but is an incompatible") {
            return PluginError(.wrongArchitecture, library: library,
                               message: "\(path) is a library for another architecture: \(detail)")
        }
        if detail.contains("undefined symbol") || detail.contains("symbol not found") {
            return PluginError(.missingSymbol, library: library,
                               message: "\(path) needs a symbol the host does not provide (was it built against this host's ModuleHost?): \(detail)")
        }
        if detail.contains("invalid ELF header") || detail.contains("file too short") || detail.contains("not a mach-o file") {
            return PluginError(.notALibrary, library: library, message: "\(path) is not a shared library: \(detail)")
        }
        return PluginError(.loadFailed, library: library, message: "the dynamic loader refused \(path): \(detail)")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
