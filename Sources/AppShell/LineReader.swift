#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines from a file descriptor, each at most ``limit`` bytes: a longer line is skipped up to its end
/// and reported as ``Line/tooLong``, so a huge line costs neither memory nor an echo of its text.
/// Used by one thread at a time (the shell's input thread).
///
/// On standard input it also hands lines shown as typed to ``LineEditor/standardInput`` once that is active,
/// and reads a password line (echo off, see ``TerminalEcho``) itself, ended by Enter or by Ctrl-C. A line ended
/// by Ctrl-C, edited or not, is read as an empty line and recorded in ``interruptions``.
final class LineReader {
    enum Line: Equatable {
        case text(String)
        case tooLong
        case end
    }

    /// The longest line read, in bytes, without its line ending.
    static let defaultLimit = 64 * 1024

    /// Set when a line was ended by Ctrl-C; the shell takes it after each line.
    static let interruptions = LockedFlag()

    let descriptor: Int32
    let limit: Int
    private let terminal: TerminalEcho?
    private let editor: LineEditor?
    private var buffer: [UInt8] = []
    /// How much of `buffer` is known to hold no newline.
    private var scanned = 0
    private var ended = false

    init(descriptor: Int32, limit: Int = LineReader.defaultLimit) {
        self.descriptor = descriptor
        self.limit = limit
        terminal = descriptor == STDIN_FILENO ? .standardInput : nil
        editor = descriptor == STDIN_FILENO ? .standardInput : nil
    }

    /// The next line, without its `\n` or `\r\n`; `.end` at the end of input (or on a read error).
    func next() -> Line {
        let secret = terminal?.isSilenced ?? false
        if let editor, !secret, editor.isActive {
            switch editor.read() {
            case .line(let text): return text.utf8.count > limit ? .tooLong : .text(text)
            case .interrupted:
                Self.interruptions.set()
                return .text("")
            case .end: return .end
            }
        }
        let interrupt = secret ? TerminalEcho.interruptByte : nil
        var overflowed = false
        while true {
            if let newline = buffer[scanned...].firstIndex(where: { $0 == UInt8(ascii: "\n") || $0 == interrupt }) {
                let line = Array(buffer[..<newline])
                let interrupted = buffer[newline] == interrupt
                buffer.removeSubrange(...newline)
                scanned = 0
                if interrupted {
                    Self.interruptions.set()
                    return .text("")
                }
                return overflowed || line.count > limit + 1 ? .tooLong : Self.decode(line, limit: limit)
            }
            scanned = buffer.count
            if buffer.count > limit + 1 {
                // Too long already: drop what was read and skip to the end of the line.
                overflowed = true
                buffer.removeAll(keepingCapacity: true)
                scanned = 0
            }
            if ended {
                if buffer.isEmpty && !overflowed { return .end }
                let rest = buffer
                buffer.removeAll()
                scanned = 0
                return overflowed ? .tooLong : Self.decode(rest, limit: limit)
            }
            readChunk()
        }
    }

    private func readChunk() {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return
            }
            if count < 0 && errno == EINTR { continue }
            ended = true
            return
        }
    }

    /// A line's text, without a trailing `\r`; `.tooLong` if it still exceeds the limit.
    private static func decode(_ bytes: [UInt8], limit: Int) -> Line {
        let text = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes[...]
        guard text.count <= limit else { return .tooLong }
        return .text(String(decoding: text, as: UTF8.self))
    }
}
