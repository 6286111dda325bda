import Foundation
import Testing

@testable import AppShell

#if canImport(Glibc)
import Glibc
#endif

/// The keys the line editor reads: a read at the prompt ends as soon as it is cancelled, even with no key typed. It
/// used to wait in libedit for the next key, so a Ctrl-C that came as a signal in the moment libedit has the signal
/// keys on left `^C` on the screen and no new prompt (found by `CtrlCTrialsTests` about once in 4,000 trials).
@Suite("app-shell editor keys")
struct EditorKeysTests {
    /// A pipe standing in for the terminal and one for the read's cancellation, closed at the end.
    private final class Pipes {
        let input: (read: Int32, write: Int32)
        let wake = InputWake()
        /// Whether the test closed the write end itself (the end of input); then it is not closed again.
        private var writeEndClosed = false

        init() throws {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            input = (ends[0], ends[1])
        }

        deinit {
            close(input.read)
            if !writeEndClosed { close(input.write) }
        }

        func endInput() {
            close(input.write)
            writeEndClosed = true
        }

        func type(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { write(input.write, $0.baseAddress, $0.count) }
        }

        func next() -> EditorKeys.Key {
            EditorKeys.next(from: input.read, cancellation: wake.descriptor ?? -1)
        }
    }

    @Test(.timeLimit(.minutes(1))) func aCancelledReadEndsWithNoKeyTypedAndReadsAsCtrlC() throws {
        let pipes = try Pipes()
        #expect(pipes.wake.beginReading())
        // Cancelled while it waits: the read returns (the test would hang otherwise, until its time limit).
        let cancel = Thread { [wake = pipes.wake] in wake.cancel() }
        cancel.start()
        let key = pipes.next()
        pipes.wake.endReading()
        #expect(key == .cancelled)
        #expect(key.code == 3, "Ctrl-C, which the editor binds to ending the line as interrupted")
    }

    @Test func keysTypedBeforeTheCancellationAreReadFirst() throws {
        let pipes = try Pipes()
        #expect(pipes.wake.beginReading())
        pipes.type(Array("ok".utf8))
        pipes.wake.cancel()
        #expect(pipes.next() == .character("o"))
        #expect(pipes.next() == .character("k"))
        #expect(pipes.next() == .cancelled)
        pipes.wake.endReading()
    }

    @Test func theEndOfInputIsMinusOne() throws {
        let pipes = try Pipes()
        pipes.endInput()
        let key = EditorKeys.next(from: pipes.input.read, cancellation: -1)
        #expect(key == .end && key.code == -1)
    }

    @Test func charactersAreDecodedFromUTF8AndBrokenBytesSkipped() throws {
        let pipes = try Pipes()
        // é, then a lone continuation byte (skipped), a sequence cut short by "x" (dropped), and a 4-byte character.
        pipes.type([0xC3, 0xA9, 0x80, 0xE2, 0x82, UInt8(ascii: "x"), 0xF0, 0x9F, 0x99, 0x82, 0xFF, UInt8(ascii: "y")])
        #expect(pipes.next() == .character("é"))
        #expect(pipes.next() == .character("x"))
        #expect(pipes.next() == .character("🙂"))
        #expect(pipes.next() == .character("y"))
        #expect(EditorKeys.Key.character("é").code == 0xE9)
    }

    /// A Ctrl-D typed on an empty line while the terminal is still in canonical mode (libedit shows the prompt before
    /// it makes the terminal raw, at its first key) is kept by the terminal as an end-of-file mark, a NUL byte once
    /// raw. It is read as Ctrl-D, the end of input: it used to reach libedit as Ctrl-@ (set mark), and the shell kept
    /// waiting (about 1 in 50 pty trials of Ctrl-D right after the prompt; 1 in 5 on a loaded machine).
    @Test func aCtrlDTypedBeforeTheTerminalWentRawIsTheEndOfInput() throws {
        var controller: Int32 = -1, terminal: Int32 = -1
        try #require(openpty(&controller, &terminal, nil, nil, nil) == 0)
        defer { close(controller); close(terminal) }
        var modes = termios()
        try #require(tcgetattr(terminal, &modes) == 0)
        try #require(modes.c_lflag & tcflag_t(ICANON) != 0, "a new pseudo-terminal is in canonical mode")
        var endOfFile: UInt8 = 4
        #expect(write(controller, &endOfFile, 1) == 1)
        modes.c_lflag &= ~tcflag_t(ICANON | ECHO)
        try #require(tcsetattr(terminal, TCSANOW, &modes) == 0)
        let key = EditorKeys.next(from: terminal, cancellation: -1, atLineStart: true)
        #expect(key == .character(EditorKeys.endOfFile) && key.code == 4, "\(key)")
    }

    /// Any other NUL (Ctrl-Space, Ctrl-@) is skipped: one that is not the first key of a line's read, and one after
    /// another key. Every NUL used to read as Ctrl-D, which ended the shell on an empty line and deleted a
    /// character in mid-line.
    @Test func aNULThatIsNotTheFirstKeyOfALineIsSkipped() throws {
        let pipes = try Pipes()
        pipes.type([0, UInt8(ascii: "a"), 0, UInt8(ascii: "b")])
        #expect(EditorKeys.next(from: pipes.input.read, cancellation: -1, atLineStart: false) == .character("a"))
        #expect(EditorKeys.next(from: pipes.input.read, cancellation: -1, atLineStart: false) == .character("b"))
        pipes.type([UInt8(ascii: "c"), 0, UInt8(ascii: "d")])
        #expect(EditorKeys.next(from: pipes.input.read, cancellation: -1, atLineStart: true) == .character("c"))
        #expect(EditorKeys.next(from: pipes.input.read, cancellation: -1, atLineStart: false) == .character("d"))
    }
}
