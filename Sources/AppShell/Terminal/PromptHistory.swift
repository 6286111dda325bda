import ModuleHost

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

/// The prompt's history file, `history` in the state directory: one command line per line, readable and
/// writable by its owner only (0600, in a 0700 directory), the last ``limit`` lines kept.
///
/// Only command lines typed at the prompt are added: never a password, nor an answer to a module's question.
/// Blank lines, a line equal to the one before it, and a line that starts with a space (a way to keep one
/// out) are not added either.
final class PromptHistory: Sendable {
    /// How many lines are kept.
    static let limit = 1000
    /// Lines longer than this (bytes) are not kept.
    static let longestLine = 4096

    let file: URL
    private let last = Locked<String?>(nil)

    init(stateDirectory: URL) {
        file = stateDirectory.appendingPathComponent("history")
    }

    /// The lines kept, oldest first; none when the file is missing or unreadable. A file over twice the limit is
    /// trimmed to it.
    func load() -> [String] {
        let read = RegularFile.read(atPath: file.path, limit: 4 * Self.limit * Self.longestLine, followingLinks: false) { (_: stat) throws(Never) in }
        guard case .success(let bytes) = read else { return [] }
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        if lines.count > 2 * Self.limit {
            lines = Array(lines.suffix(Self.limit))
            rewrite(lines)
        }
        last.withLock { $0 = lines.last }
        return lines
    }

    /// Whether `line` is one to keep.
    func keeps(_ line: String) -> Bool {
        !line.allSatisfy(\.isWhitespace) && !line.hasPrefix(" ") && line.utf8.count <= Self.longestLine
            && !line.contains("\n") && last.withLock { $0 } != line
    }

    /// Appends `line` if it is one to keep; returns whether it did. A file that cannot be written is skipped.
    @discardableResult
    func append(_ line: String) -> Bool {
        guard keeps(line) else { return false }
        last.withLock { $0 = line }
        guard mkdir(file.deletingLastPathComponent().path, 0o700) == 0 || errno == EEXIST else { return false }
        let descriptor = open(file.path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { return false }
        return DescriptorOutput.write(Array((line + "\n").utf8), to: descriptor)
    }

    private func rewrite(_ lines: [String]) {
        let temporary = file.path + ".new"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let written = DescriptorOutput.write(Array(lines.map { $0 + "\n" }.joined().utf8), to: descriptor)
        close(descriptor)
        if !written || rename(temporary, file.path) != 0 { unlink(temporary) }
    }
}
