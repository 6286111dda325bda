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

#if !os(Windows)
extension PluginLoader {
    /// The library's real path, which must lie inside the manifest's folder (after `..` and symbolic links), and
    /// the manifest folder's real path.
    static func containedPath(of library: String, in manifestDirectory: URL) throws(PluginError) -> (String, String) {
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
        guard resolved != directory else {
            throw refuse(.notARegularFile,
                         "\(DisplayText.quoted(library, with: "\"")) names the manifest's folder \(directory) itself, not a plugin library; "
                            + "give the path of the library file, such as \"plugins/libGreeter.so\"")
        }
        guard resolved.hasPrefix(directory.hasSuffix("/") ? directory : directory + "/") else {
            let lexical = URL(fileURLWithPath: candidate).standardizedFileURL.path
            let how = lexical.hasPrefix(directory + "/") || lexical.hasPrefix(manifestDirectory.standardizedFileURL.path + "/")
                ? "through a symbolic link" : "through \"..\" or an absolute path"
            throw refuse(.escapesManifestDirectory,
                         "\(library) leads \(how) to \(resolved), outside the manifest's folder \(directory); plugins must live inside it")
        }
        return (resolved, directory)
    }

    /// Checks every folder from the library's own up to the manifest's folder (both included) like the file:
    /// owned by this user or root, writable by neither group nor others (a sticky folder is no exception).
    static func checkFolders(from resolved: String, upTo directory: String, library: String) throws(PluginError) {
        var folder = parent(of: resolved)
        while true {
            var status = stat()
            guard lstat(folder, &status) == 0 else {
                throw PluginError(.notFound, library: library, message: "the folder \(folder) cannot be examined: \(String(cString: strerror(errno)))")
            }
            if status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
                throw PluginError(.unsafeFolder, library: library, message:
                    "the folder \(folder), which holds the plugin \(resolved), can be written by group or others (mode \(String(status.st_mode & 0o777, radix: 8))); run chmod go-w on it")
            }
            if status.st_uid != getuid() && status.st_uid != 0 {
                throw PluginError(.unsafeFolder, library: library, message:
                    "the folder \(folder), which holds the plugin \(resolved), is owned by another user (uid \(status.st_uid))")
            }
            if folder == directory || folder.count <= directory.count { return }
            folder = parent(of: folder)
        }
    }

    /// The folder that holds `path`: `/a/b` for `/a/b/c`, `/` for `/a`.
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
#endif
