#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The keys ``LineEditor`` gives libedit: read one character at a time from the terminal, while also waiting on the
/// read's cancellation (an ``InputWake``), so that a cancelled read ends at once instead of at the next key.
enum EditorKeys {
    /// What ``next(from:cancellation:)`` read.
    enum Key: Equatable {
        /// A character typed (UTF-8).
        case character(Unicode.Scalar)
        /// The cancellation came, and no key was waiting: read as Ctrl-C, which ends the line.
        case cancelled
        case end

        /// The code libedit takes: the character, Ctrl-C, or -1 for the end of input.
        var code: Int32 {
            switch self {
            case .character(let character): Int32(bitPattern: character.value)
            case .cancelled: Int32(TerminalEcho.interruptByte)
            case .end: -1
            }
        }
    }

    /// Ctrl-D: on an empty line, the end of input.
    static let endOfFile: Unicode.Scalar = "\u{4}"

    /// The next character from `descriptor`, or ``Key/cancelled`` once `cancellation` (-1 for none) is readable.
    /// Keys already typed come first.
    ///
    /// A Ctrl-D typed on an empty line while the terminal was still in canonical mode (typed ahead while a command
    /// ran, or the moment the prompt showed) is kept by the terminal as an end-of-file mark, which reads as a NUL
    /// byte once it is raw. So a NUL is read as Ctrl-D only when it is the first key of a line's read
    /// (`atLineStart`) and was already waiting when the read began; any other NUL (Ctrl-Space, Ctrl-@) is skipped:
    /// handed to libedit, a NUL cuts the line it ends up in, and reading every NUL as Ctrl-D made Ctrl-Space quit
    /// the shell on an empty line and delete a character in mid-line.
    static func next(from descriptor: Int32, cancellation: Int32, atLineStart: Bool = false) -> Key {
        var decoder = Decoder()
        var markMayBeWaiting = atLineStart && waitingByteCount(in: descriptor) > 0
        while true {
            switch nextByte(from: descriptor, cancellation: cancellation) {
            case .byte(0) where markMayBeWaiting:
                return .character(Self.endOfFile)
            case .byte(0):
                continue
            case .byte(let byte):
                markMayBeWaiting = false
                if let character = decoder.add(byte) { return .character(character) }
            case .cancelled: return .cancelled
            case .end: return .end
            }
        }
    }

    /// How many bytes `descriptor` holds, ready to be read; 0 when that cannot be told.
    private static func waitingByteCount(in descriptor: Int32) -> Int32 {
        var waiting: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &waiting) == 0 ? waiting : 0
    }

    private enum Read {
        case byte(UInt8), cancelled, end
    }

    private static func nextByte(from descriptor: Int32, cancellation: Int32) -> Read {
        var watched = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: cancellation, events: Int16(POLLIN), revents: 0)]
        while true {
            if poll(&watched, cancellation >= 0 ? 2 : 1, -1) < 0 {
                if errno == EINTR { continue }
                return .end
            }
            if watched[0].revents != 0 {
                var byte: UInt8 = 0
                let count = read(descriptor, &byte, 1)
                if count == 1 { return .byte(byte) }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                return .end
            }
            if watched[1].revents != 0 { return .cancelled }
        }
    }

    /// Decodes UTF-8 one byte at a time: a character once its bytes are complete. A byte that cannot start a
    /// character, and a sequence cut short or invalid, are skipped.
    struct Decoder {
        private var bytes: [UInt8] = []

        mutating func add(_ byte: UInt8) -> Unicode.Scalar? {
            if !bytes.isEmpty, byte & 0xC0 != 0x80 { bytes.removeAll() }
            bytes.append(byte)
            let length = Self.length(startingWith: bytes[0])
            guard length > 0 else {
                bytes.removeAll()
                return nil
            }
            guard bytes.count == length else { return nil }
            defer { bytes.removeAll() }
            return String(validating: bytes, as: UTF8.self)?.unicodeScalars.first
        }

        /// How many bytes a character starting with `byte` has; 0 if none starts with it.
        private static func length(startingWith byte: UInt8) -> Int {
            switch byte {
            case 0x00...0x7F: 1
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 0
            }
        }
    }
}
