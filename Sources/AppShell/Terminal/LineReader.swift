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
/// by Ctrl-C, edited or not, is read as an empty line and recorded in ``interruptions``; so is a read that its
/// ``InputWake`` cancelled (``wasCancelled``).
///
/// Right after an edited line, the bytes typed before the terminal left the editor's mode (and so before Ctrl-C
/// was a signal again) are taken (``takeTypedAhead()``): a Ctrl-C among them is recorded in
/// ``interruptsAfterLine``, the rest is kept as the next line's start, shown and read as typed.
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
    /// Set when Ctrl-C was typed right after an edited line, before the terminal's signal keys were back on.
    static let interruptsAfterLine = LockedFlag()

    let descriptor: Int32
    let limit: Int
    private let terminal: TerminalEcho?
    private let editor: LineEditor?
    private let wake: InputWake?
    /// Whether the last read was cancelled by ``wake``.
    private(set) var wasCancelled = false
    private var buffer: [UInt8] = []
    /// How much of `buffer` is known to hold no newline.
    private var scanned = 0
    private var ended = false

    init(descriptor: Int32, limit: Int = LineReader.defaultLimit, wake: InputWake? = nil) {
        self.descriptor = descriptor
        self.limit = limit
        self.wake = wake
        terminal = descriptor == STDIN_FILENO ? .standardInput : nil
        editor = descriptor == STDIN_FILENO ? .standardInput : nil
    }

    /// The next line, without its `\n` or `\r\n`; `.end` at the end of input (or on a read error).
    func next() -> Line {
        wasCancelled = false
        if let wake {
            guard wake.beginReading() else { return cancelled() }
        }
        defer { wake?.endReading() }
        let secret = terminal?.isSilenced ?? false
        if let editor, !secret, editor.isActive {
            if buffer.isEmpty { return edited(editor) }
            // Typed ahead: shown after the prompt, and the rest of the line read as typed.
            if let text = editor.showTypedAhead(buffer) { DescriptorOutput.write(text, to: STDOUT_FILENO) }
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
            if wasCancelled { return cancelled() }
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

    /// An edited line, and what was typed right after it.
    private func edited(_ editor: LineEditor) -> Line {
        switch editor.read(cancellation: wake?.descriptor) {
        case .line(let text):
            // Ctrl-C came as a signal after Enter, as the editor gave the terminal its signal keys back: it interrupts
            // this line. (One that came before Enter ended the read as interrupted, see ``LineEditor``.)
            if editor.lastReadWasCommandLine, wake?.isCancelled == true { Self.interruptsAfterLine.set() }
            takeTypedAhead()
            return text.utf8.count > limit ? .tooLong : .text(text)
        case .interrupted:
            Self.interruptions.set()
            return .text("")
        case .end: return .end
        }
    }

    /// Takes the bytes waiting after an edited line (typed while the editor still had the terminal): a Ctrl-C among
    /// them is an interrupt and drops what came before it; what is left starts the next line.
    private func takeTypedAhead() {
        var waiting: Int32 = 0
        guard ioctl(descriptor, UInt(FIONREAD), &waiting) == 0, waiting > 0 else { return }
        // Read without waiting (a Ctrl-C meanwhile may have flushed the input): not canonical, no minimum, no timer.
        var saved = termios()
        guard tcgetattr(descriptor, &saved) == 0 else { return }
        var immediate = saved
        immediate.c_lflag &= ~tcflag_t(ICANON)
        withUnsafeMutableBytes(of: &immediate.c_cc) { characters in
            characters[Int(VMIN)] = 0
            characters[Int(VTIME)] = 0
        }
        guard tcsetattr(descriptor, TCSANOW, &immediate) == 0 else { return }
        var bytes = [UInt8](repeating: 0, count: Int(waiting))
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        tcsetattr(descriptor, TCSANOW, &saved)
        guard count > 0 else { return }
        var typed = bytes[..<count]
        if let last = typed.lastIndex(of: TerminalEcho.interruptByte) {
            Self.interruptsAfterLine.set()
            typed = typed[(last + 1)...]
        }
        // The editor's mode reads Enter as a carriage return; read as typed, a line ends in a newline.
        buffer.append(contentsOf: typed.map { $0 == UInt8(ascii: "\r") ? UInt8(ascii: "\n") : $0 })
    }

    /// A cancelled read: what was typed ahead goes too, as the terminal drops its input on Ctrl-C.
    private func cancelled() -> Line {
        wasCancelled = true
        buffer.removeAll()
        scanned = 0
        Self.interruptions.set()
        return .text("")
    }

    private func readChunk() {
        if let wake = wake?.descriptor {
            var watched = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            while poll(&watched, 2, -1) < 0 && errno == EINTR {}
            if watched[1].revents != 0 {
                wasCancelled = true
                return
            }
        }
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
