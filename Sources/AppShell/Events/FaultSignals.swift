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

    /// The terminal's modes when the shell started, and the actions the handler replaced (by signal number); set
    /// once, by ``install()``, before the handler is.
    nonisolated(unsafe) private static var entryModes: UnsafeMutablePointer<termios>?
    nonisolated(unsafe) private static var previous: UnsafeMutablePointer<sigaction>?
    private static let slots = 64

    /// Remembers the terminal's modes and catches the fault signals; does nothing when standard input is not a
    /// terminal (there is nothing to put back).
    static func install() {
        var modes = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &modes) == 0 else { return }
        let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        saved.initialize(to: modes)
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: slots)
        actions.initialize(repeating: sigaction(), count: slots)
        entryModes = saved
        previous = actions
        var action = Signals.action(restoreAndHandOn, flags: SA_ONSTACK, blockingAll: false)
        for number in numbers where Int(number) < slots { sigaction(number, &action, actions + Int(number)) }
    }

    /// Puts the terminal back, reinstates the action that was there before, and lets the signal take it: a fault
    /// happens again when the handler returns; a signal sent by a process (`kill`, `abort`) is sent again.
    private static let restoreAndHandOn: Signals.Handler = { number, info, _ in
        if let modes = FaultSignals.entryModes { tcsetattr(STDIN_FILENO, TCSANOW, modes) }
        if let previous = FaultSignals.previous, Int(number) < FaultSignals.slots {
            sigaction(number, previous + Int(number), nil)
        } else {
            signal(number, SIG_DFL)
        }
        if (info?.pointee.si_code ?? 0) <= 0 { raise(number) }
    }
}
