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

/// A path from the command line made absolute: the `path` of
/// `URL(fileURLWithPath: path, relativeTo: workingDirectory).standardizedFileURL`, worked out on the path's
/// bytes. The first URL and `FileManager` of a process cost about a fifth of a millisecond and a megabyte or two
/// of memory, a large part of a command that only lists modules.
///
/// The bytes are enough for every path except the rare ones whose meaning depends on more than the text: one
/// that starts with `~` (a home directory) or a working directory that cannot be read as UTF-8. Those are left to
/// `URL`, so every path resolves exactly as before.
enum AbsolutePath {
    /// `path` made absolute against the working directory, with empty, `.` and `..` components resolved
    /// lexically (symbolic links are not followed) and no trailing slash.
    static func resolving(_ path: String) -> String {
        switch path.utf8.first {
        case UInt8(ascii: "~"): return resolvingWithURL(path)
        case UInt8(ascii: "/"): return standardized(path, emptySegmentsCount: false)
        default: break
        }
        guard let directory = workingDirectory() else { return resolvingWithURL(path) }
        return standardized(directory + "/" + path, emptySegmentsCount: true)
    }

    /// The working directory, `nil` when it cannot be read (it was removed, say) or is not UTF-8.
    static func workingDirectory() -> String? {
        guard let buffer = getcwd(nil, 0) else { return nil }
        defer { free(buffer) }
        return String(validatingCString: buffer)
    }

    /// An absolute `path` with its dot segments removed (`.` dropped, `..` taking away the segment before it and
    /// none above the root) and its empty segments dropped, so no doubled or trailing slash remains.
    ///
    /// `URL` treats the two kinds of path differently, and so does this: in a path given absolute the empty segments
    /// go first (`/a//../b` is `/b`); in one resolved against the working directory they go last, so a `..` can take
    /// away an empty segment (`a//../b` is `a/b`), as RFC 3986 resolves a relative reference. A loop over the
    /// bytes: the generic `split` costs more on first use than the work.
    static func standardized(_ path: String, emptySegmentsCount: Bool) -> String {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var segments: [[UInt8]] = []
        var segment: [UInt8] = []
        var atRoot = true
        func endSegment() {
            defer { segment.removeAll(keepingCapacity: true) }
            // The empty text before the path's first slash is the root, not a segment.
            if atRoot {
                atRoot = false
                if segment.isEmpty { return }
            }
            switch segment {
            case [dot]: return
            case [dot, dot]: _ = segments.popLast()
            case []: if emptySegmentsCount { segments.append(segment) }
            default: segments.append(segment)
            }
        }
        for byte in path.utf8 {
            if byte == slash { endSegment() } else { segment.append(byte) }
        }
        endSegment()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for segment in segments where !segment.isEmpty {
            bytes.append(slash)
            bytes.append(contentsOf: segment)
        }
        return bytes.isEmpty ? "/" : String(decoding: bytes, as: UTF8.self)
    }

    /// The way the shell resolved every path before: through `URL` and `FileManager`.
    static func resolvingWithURL(_ path: String) -> String {
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return URL(fileURLWithPath: path, relativeTo: workingDirectory).standardizedFileURL.path
    }
}
