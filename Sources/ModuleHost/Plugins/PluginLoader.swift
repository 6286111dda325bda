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

/// Checks plugin libraries named in manifests, by reading their files, and loads them when a manifest is
/// registered for real; validation only inspects.
///
/// The checks, in order, all before any code of the library can run: the path stays inside the manifest's folder
/// (after resolving `..` and symbolic links), and so does every folder on the way, each owned by this user or root
/// and writable by neither group nor others; the path is a regular file (opened without blocking), with the same
/// ownership and mode rules; its SHA-256 matches the manifest's `sha256` when one is given; then the file's contents
/// (``PluginInspector``). The file is opened once and every check, the checksum and (on Linux) `dlopen` itself use
/// that descriptor, so the file cannot be swapped between check and load. Libraries stay loaded for the life of
/// the process: Swift type metadata cannot be unloaded.
enum PluginLoader {
    /// The largest library hashed or inspected; a plugin is a few megabytes.
    static let maximumLibrarySize = 512 << 20

    /// Libraries already loaded, by resolved path, with the descriptor each was loaded through. The descriptors
    /// stay open for the life of the process: on Linux the loader knows a library by its `/proc/self/fd/N` name,
    /// so a closed descriptor's number, reused by the next plugin, would make `dlopen` return the old library.
    private static let loaded = Locked<[String: Int32]>([:])

    /// A library file that passed the checks of its path, its folders, its mode and its checksum, held open.
    struct OpenedLibrary {
        let library: String
        let resolved: String
        let descriptor: Int32
        let size: UInt64
    }

    /// Checks `library` (relative to `manifestDirectory` unless absolute) up to its checksum and opens it; the
    /// caller closes the descriptor (or hands it to ``load(_:)``).
    static func open(_ library: String, sha256: String?, manifestDirectory: URL) throws(PluginError) -> OpenedLibrary {
        #if os(Windows)
        throw PluginError(.unsupportedPlatform, library: library, message: "plugins are not supported on this platform")
        #else
        if let sha256, !SHA256Digest.isWellFormed(sha256) {
            throw PluginError(.invalidChecksum, library: library, message: "sha256 must be 64 hexadecimal digits, found \"\(sha256)\"")
        }
        let (resolved, directory) = try containedPath(of: library, in: manifestDirectory)
        try checkFolders(from: resolved, upTo: directory, library: library)
        let (descriptor, size) = try openChecked(resolved, library: library)
        do throws(PluginError) {
            // Checked for every entry, even when another entry has already loaded the same library.
            if let sha256 { try verifyChecksum(of: descriptor, path: resolved, expected: sha256.lowercased(), library: library) }
        } catch {
            close(descriptor)
            throw error
        }
        return OpenedLibrary(library: library, resolved: resolved, descriptor: descriptor, size: size)
        #endif
    }

    /// Whether the library at `resolved` has been loaded already.
    static func isLoaded(_ resolved: String) -> Bool {
        loaded.withLock { $0[resolved] != nil }
    }

    /// Loads an opened, inspected library (once per process); takes over its descriptor.
    static func load(_ opened: OpenedLibrary) throws(PluginError) {
        #if os(Windows)
        throw PluginError(.unsupportedPlatform, library: opened.library, message: "plugins are not supported on this platform")
        #else
        if isLoaded(opened.resolved) {
            close(opened.descriptor)
            return
        }
        do throws(PluginError) {
            try dynamicallyLoad(opened.descriptor, path: opened.resolved, library: opened.library)
        } catch {
            close(opened.descriptor)
            throw error
        }
        loaded.withLock { $0[opened.resolved] = opened.descriptor }
        #endif
    }
}
