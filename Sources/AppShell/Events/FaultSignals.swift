#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The fault signals (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT) still end the process at once, with
/// no shutdown, but the terminal is first put back as the shell found it: a crash at the password prompt used to
/// leave echo off. The handler runs `tcsetattr` and the handler that was there before (the Swift runtime's
/// backtracer), then ends the process by the signal with its default action, whatever that handler did.
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

    /// Puts the terminal back, runs the handler that was there before (the Swift runtime's backtracer prints its
    /// report), and then ends the process by the signal whatever that handler did: the backtracer returns from a
    /// signal that was sent rather than raised by a fault, and the shell used to go on reading the password with
    /// echo on. A fault happens again when this handler returns, now with the default action; a sent signal
    /// (`kill`, `abort`), a trap and a refused system call are raised again, unblocked, with the default action.
    private static let restoreAndHandOn: Signals.Handler = { number, info, context in
        if let saved = FaultSignals.saved, number >= 0, number < 64 {
            tcsetattr(STDIN_FILENO, TCSANOW, saved.modes)
            FaultSignals.runPrevious(saved.actions[Int(number)], number, info, context)
            tcsetattr(STDIN_FILENO, TCSANOW, saved.modes)
        }
        signal(number, SIG_DFL)
        // A fault happens again when the handler returns, but a trap (`int3` leaves the instruction behind it) and a
        // system call a filter refused (seccomp skips it) do not: those are raised again, as a sent signal is.
        guard (info?.pointee.si_code ?? 0) <= 0 || number == SIGTRAP || number == SIGSYS else { return }
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, number)
        pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
        raise(number)
    }

    /// Calls the function `action` names, in the form its flags say; nothing for the default action or "ignore".
    private static func runPrevious(_ action: sigaction, _ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?,
                                    _ context: UnsafeMutableRawPointer?) {
        #if canImport(Glibc)
        let withInfo = action.__sigaction_handler.sa_sigaction, plain = action.__sigaction_handler.sa_handler
        #elseif canImport(Musl)
        let withInfo = action.__sa_handler.sa_sigaction, plain = action.__sa_handler.sa_handler
        #else
        let withInfo = action.__sigaction_u.__sa_sigaction, plain = action.__sigaction_u.__sa_handler
        #endif
        // SIG_DFL is 0 and SIG_IGN is 1: neither is a function to call.
        guard let plain, UInt(bitPattern: unsafeBitCast(plain, to: Int.self)) > 1 else { return }
        if action.sa_flags & SA_SIGINFO != 0, let withInfo { withInfo(number, info, context) } else { plain(number) }
    }
}
