#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHostSystemLibraries

/// The part of a module's ABI identity that comes from its sources: a SHA-256 over every Swift file of the target,
/// byte for byte. Each module a plugin may compile against has its own (ModuleHost, ModuleHostState,
/// ModuleHostRouting, each interface target), so an edit in one rebuilds only what depends on it.
///
/// The definition: for each file, in the byte order of its path relative to the folder that holds the target
/// (`Sources/`, so the paths read `ModuleHost/…`), the line
/// `"<SHA-256 of the file's bytes, 64 lowercase hex>  <relative path>\n"` (the format of `sha256sum`); the digest
/// is the SHA-256 of those lines concatenated.
///
/// Why every byte of every file, and not only the public interface: it is the definition that cannot miss a
/// change. A digest of the public interface needs a parser or the compiler's emitted interface, and either can
/// leave out what decides a layout (a non-public stored property of a public class changes its size; an
/// `@inlinable` body is copied into the plugin). A comment edit also changes the identity, which costs only a
/// plugin rebuild; it never lets a mismatched plugin in.
enum SourceDigest {
    /// Why the sources could not be read.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The digest of `files` (absolute paths inside `folder`), as 64 lowercase hex digits.
    static func digest(files: [String], relativeTo folder: String) throws -> String {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        var entries: [(path: String, digest: String)] = []
        for file in files {
            guard file.hasPrefix(prefix) else { throw Failure(description: "\(file) is not inside \(folder)") }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            entries.append((String(file.dropFirst(prefix.count)), try hex(of: bytes)))
        }
        entries.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        let listing = entries.map { "\($0.digest)  \($0.path)\n" }.joined()
        return try hex(of: Data(listing.utf8))
    }

    /// SHA-256 from the system's library, as the host computes a plugin's digest.
    private static func hex(of data: Data) throws -> String {
        guard let digest = SHA256Digest.hex(of: data) else {
            throw Failure(description: "the system has no SHA-256 (libcrypto on Linux, CommonCrypto on Apple platforms)")
        }
        return digest
    }
}
