import ModuleHost

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal's echo, turned off for one password read and turned back on on every way out; and the terminal's
/// settings before a line is edited (``LineEditor`` changes them), put back on every way out too.
///
/// Turning echo off and the final restore take the same lock, and the restore closes the door for good: once the
/// shell is ending, a password read that had not yet turned echo off no longer does, so echo cannot be left off by
/// an input thread that loses the race against shutdown.
///
/// While echo is off the terminal's signal keys are off too and Ctrl-C ends the line (it is the `VEOL`
/// character), so a password read can be cancelled without a signal: ``LineReader`` sees the line end in
/// ``interruptByte`` and reports it as interrupted.
final class TerminalEcho: Sendable {
    /// What ``silence()`` did.
    enum Silence: Equatable {
        /// Echo is off until ``unsilence()`` or ``restore()``.
        case silenced
        /// Not a terminal (or it refused): nothing to turn off.
        case unavailable
        /// The shell is ending (``restore()`` ran): echo stays on and nothing should be read.
        case closed
    }

    private struct State: @unchecked Sendable {
        var saved: termios?
        /// The settings before the line being edited, while one is.
        var beforeEditing: termios?
        var closed = false
    }

    /// Ctrl-C: what ends a password line when the user cancels it.
    static let interruptByte: UInt8 = 3

    static let standardInput = TerminalEcho(descriptor: STDIN_FILENO)

    let descriptor: Int32
    private let state = Locked(State())

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Turns echo off, unless the shell is already ending.
    func silence() -> Silence {
        state.withLock { state in
            if state.closed { return .closed }
            if state.saved != nil { return .silenced }
            var original = termios()
            guard tcgetattr(descriptor, &original) == 0 else { return .unavailable }
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO | ISIG)
            withUnsafeMutableBytes(of: &silent.c_cc) { $0[Int(VEOL)] = Self.interruptByte }
            // TCSANOW, not TCSAFLUSH: a password typed ahead must not be thrown away.
            guard tcsetattr(descriptor, TCSANOW, &silent) == 0 else { return .unavailable }
            state.saved = original
            return .silenced
        }
    }

    /// Whether echo is off (a password is being read).
    var isSilenced: Bool {
        state.withLock { $0.saved != nil }
    }

    /// Remembers the settings before a line is edited, so ``restore()`` can put them back; `false` when the shell
    /// is ending (nothing should be read).
    func beginEditing() -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            var current = termios()
            if tcgetattr(descriptor, &current) == 0 { state.beforeEditing = current }
            return true
        }
    }

    /// The edit is over and the editor put the settings back.
    func endEditing() {
        state.withLock { $0.beforeEditing = nil }
    }

    /// Turns echo back on after a password read.
    func unsilence() {
        state.withLock { Self.putBack(&$0, on: descriptor) }
    }

    /// Turns echo back on if it is off, for good: later ``silence()`` calls do nothing. Called on every way out.
    func restore() {
        state.withLock { state in
            state.closed = true
            Self.putBack(&state, on: descriptor)
            if var beforeEditing = state.beforeEditing {
                state.beforeEditing = nil
                tcsetattr(descriptor, TCSANOW, &beforeEditing)
            }
        }
    }

    private static func putBack(_ state: inout State, on descriptor: Int32) {
        guard var original = state.saved else { return }
        state.saved = nil
        tcsetattr(descriptor, TCSANOW, &original)
    }
}
