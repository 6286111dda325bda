#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The fault signals (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT) still end the process at once, with
/// no shutdown, but the terminal is first put back as the shell found it: a crash at the password prompt used to
/// leave echo off. The handler runs only `tcsetattr`, then hands the signal on as it was: to the handler that was
/// there before (the Swift runtime's backtracer) or to the default action.
enum FaultSignals {
    /// The signals that report a fault of the process itself.
    static let numbers = [SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT]

    /// The terminal's modes when the shell started, and the actions the handler replaced (by signal number).
    private struct Saved: @unchecked Sendable {  // written once, before the handler is installed; read only after
        let modes: UnsafeMutablePointer<termios>
        let actions: UnsafeMutablePointer<sigaction>
    }

    private static let slots = 64

    /// What the handler puts back, made by ``install()`` (its first reader) before the handler is installed; `nil`
    /// when standard input is not a terminal (there is nothing to put back). A constant: the handler reads it
    /// without entering the Swift runtime (see ``Signals``' handler).
    private static let saved: Saved? = {
        var modes = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &modes) == 0 else { return nil }
        let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        saved.initialize(to: modes)
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: slots)
        actions.initialize(repeating: sigaction(), count: slots)
        return Saved(modes: saved, actions: actions)
    }()

    /// Remembers the terminal's modes and catches the fault signals; does nothing when standard input is not a
    /// terminal.
    static func install() {
        guard let saved else { return }
        var action = Signals.action(restoreAndHandOn, flags: SA_ONSTACK, blockingAll: false)
        for number in numbers where Int(number) < slots { sigaction(number, &action, saved.actions + Int(number)) }
    }

    /// Puts the terminal back, reinstates the action that was there before, and lets the signal take it: a fault
    /// happens again when the handler returns; a signal sent by a process (`kill`, `abort`) is sent again.
    private static let restoreAndHandOn: Signals.Handler = { number, info, _ in
        if let saved = FaultSignals.saved, number >= 0, number < 64 {
            tcsetattr(STDIN_FILENO, TCSANOW, saved.modes)
            sigaction(number, saved.actions + Int(number), nil)
        } else {
            signal(number, SIG_DFL)
        }
        var code: Int32 = 0
        if let info { code = info.pointee.si_code }
        if code <= 0 { raise(number) }
    }
}
