import ModuleHost
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Every signal the shell handles, in one place: `main` calls ``start()`` before anything else. From then on a
/// signal never ends the process by its default action: each one is caught by ``forward``, a handler that only writes
/// the signal's number (and who sent it) to a pipe, and one thread, the signal thread, reads the pipe and hands each
/// signal to the current ``Reaction``. Nothing but `write` runs in a signal handler.
///
/// ``start()`` also blocks the signals on the calling thread, so the threads the shell makes later inherit the block
/// and their reads are not interrupted; the signal thread unblocks them, so some thread always takes them, even
/// while the main thread is busy (as does the main thread that dispatch parks in `sigsuspend` under an asynchronous
/// `main`).
///
/// - A subcommand that starts nothing, or any subcommand while the manifest is read, ends at once (``Reaction/exit(message:)``):
///   nothing was started, so there is nothing to shut down.
/// - Once ``ShellEvents`` takes them (``Reaction/deliver(_:)``), a signal shuts the shell down in order; at the
///   interactive prompt, a Ctrl-C typed at the terminal interrupts the command instead (``ShellEvents``).
///
/// Every signal whose default action ends the process is caught, except those that report a fault of the
/// process itself (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT: a crash, not a request; they only put
/// the terminal back first, see ``FaultSignals``) and the
/// real-time signals (nothing sends them to the shell). SIGPIPE is ignored: a write to a closed pipe fails where it
/// happens and is handled there. SIGINT ends with 130; every other one, SIGHUP (a closed terminal) included, ends
/// like SIGTERM, with 143.
enum Signals {
    /// What a signal does now.
    enum Reaction: Sendable {
        /// End the process at once with the signal's status, after writing `message` (if any) to standard error and
        /// turning the terminal's echo back on.
        case exit(message: String?)
        /// Hand the signal to `handler`, on the signal thread.
        case deliver(@Sendable (Arrival) -> Void)
    }

    /// A signal that arrived.
    struct Arrival: Sendable, Equatable {
        let number: Int32
        /// Sent by the kernel, not by a process: for SIGINT, the Ctrl-C key of the controlling terminal.
        let typedAtTerminal: Bool
    }

    /// The signals handled: those whose default action ends the process, less the faults.
    static var caught: [Int32] {
        var numbers = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ]
        #if os(Linux)
        numbers += [SIGIO, SIGPWR, SIGSTKFLT]
        #endif
        return numbers
    }

    private static let reaction = Locked(Reaction.exit(message: nil))

    /// Sets what a signal does from now on.
    static func react(_ new: Reaction) {
        reaction.withLock { $0 = new }
    }

    /// The ends of the pipe the handler writes to and the signal thread reads; -1 when no pipe could be made.
    private struct PipeEnds {
        let read: Int32
        let write: Int32
    }

    /// The pipe, made by ``start()`` (its first reader) before any handler is installed. A constant, so the handler
    /// reads it without the exclusivity checks a variable gets.
    private static let pipeEnds: PipeEnds = {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return PipeEnds(read: -1, write: -1) }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        // A flood of signals fills the pipe and the rest are dropped; the handler never blocks.
        _ = fcntl(descriptors[1], F_SETFL, fcntl(descriptors[1], F_GETFL) | O_NONBLOCK)
        return PipeEnds(read: descriptors[0], write: descriptors[1])
    }()

    /// Starts the signal thread and catches ``caught`` (blocked on the calling thread, see above). If no pipe or
    /// thread can be made, the signals keep their default actions.
    static func start() {
        FaultSignals.install()
        signal(SIGPIPE, SIG_IGN)
        guard pipeEnds.read >= 0, DetachedThread.spawn(name: "app-shell signals", watch) else { return }
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        var action = Self.action(forward, flags: SA_RESTART, blockingAll: true)
        for number in caught { sigaction(number, &action, nil) }
        barriers.start()
    }

    /// Waits until the signal thread has reacted to every signal the handler wrote so far; returns a signal that
    /// reached the process but not yet the handler, if any. So a shell that is ending learns of a signal that came
    /// with its last input (a SIGTERM sent as standard input closed, say), however late the signal thread runs.
    static func settle() async -> Int32? {
        var pending = sigset_t()
        sigemptyset(&pending)
        sigpending(&pending)
        if let number = caught.first(where: { sigismember(&pending, $0) == 1 }) { return number }
        // A signal no longer pending was taken by the main thread or the signal thread. The main thread, parked, has
        // written its record once it sleeps again; the signal thread writes one before it reads the first barrier,
        // so before the second.
        await parkedMainThreadSleeps()
        await barriers.pass(writing: pipeEnds.write)
        await barriers.pass(writing: pipeEnds.write)
        return nil
    }

    /// Under an asynchronous `main`, dispatch parks the main thread in `sigsuspend` with no signal blocked, so it takes
    /// signals too, and does nothing else. Waits until it sleeps there: it is running only while it handles one (1 ms
    /// between looks, for at most 2 s). On Linux, through `/proc`; elsewhere (or when that cannot be read) at once.
    private static func parkedMainThreadSleeps() async {
        #if os(Linux)
        let path = "/proc/self/task/\(getpid())/stat"
        for _ in 0..<2_000 {
            guard mainThreadState(path) == UInt8(ascii: "R") else { return }
            try? await Task.sleep(for: .milliseconds(1))
        }
        #endif
    }

    /// The state letter of the thread whose `stat` file is at `path` (the field after the name in parentheses).
    private static func mainThreadState(_ path: String) -> UInt8? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0, let end = bytes[..<count].lastIndex(of: UInt8(ascii: ")")), end + 2 < count else { return nil }
        return bytes[end + 2]
    }

    /// The barrier records ``settle()`` writes after the signals, each passed when the signal thread reads it.
    private static let barriers = Barriers()

    /// A handler given the signal's `siginfo_t` (`SA_SIGINFO`).
    typealias Handler = @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void

    /// The action that runs `handler` with `flags` (and `SA_SIGINFO`), with every signal blocked while it runs when
    /// `blockingAll`, none otherwise.
    static func action(_ handler: Handler, flags: Int32, blockingAll: Bool) -> sigaction {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_sigaction = handler
        #elseif canImport(Musl)
        action.__sa_handler.sa_sigaction = handler
        #else
        action.__sigaction_u.__sa_sigaction = handler
        #endif
        action.sa_flags = SA_SIGINFO | flags
        if blockingAll { sigfillset(&action.sa_mask) } else { sigemptyset(&action.sa_mask) }
        return action
    }

    /// The handler: writes one `Int32` record to the pipe, and does nothing else: the signal's number, with
    /// ``sentByKernel`` added when the kernel sent it (`si_code` is `SI_KERNEL`: on Linux, a Ctrl-C typed at the
    /// terminal).
    ///
    /// It must not enter the Swift runtime. A debug build asks the runtime for a tuple's or a generic's type metadata
    /// under a lock, and a signal that came while its thread held that lock would deadlock there. Under Thread
    /// Sanitizer, which runs a handler when an intercepted call returns, the signal thread did, in ``next()``. So the
    /// record is one `Int32` written through its address: nothing generic, no tuple, no conversion.
    private static let forward: Handler = { number, info, _ in
        let saved = errno
        var record = number
        #if os(Linux)
        if let info, info.pointee.si_code == SI_KERNEL { record |= sentByKernel }
        #endif
        _ = write(Signals.pipeEnds.write, &record, 4)
        errno = saved
    }

    /// Added to a record's signal number when the kernel sent the signal (above every signal number). Computed, not
    /// stored: a stored one is initialized lazily, under a lock, the first time it is read.
    private static var sentByKernel: Int32 { 0x100 }

    /// The status a signal ends the program with: 130 for SIGINT, 143 (as SIGTERM) for the others.
    static func exitCode(for number: Int32) -> ExitCode {
        number == SIGINT ? .interrupted : .terminated
    }

    static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in caught { sigaddset(&set, number) }
        return set
    }

    /// The signal thread: takes the signals (it may have been made by a thread that blocks them: a thread of
    /// dispatch's), then forever reads the next one from the pipe and reacts to it.
    private static func watch() {
        var set = signalSet()
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        while true {
            guard let arrival = next() else { continue }
            if arrival.number == Barriers.record {
                barriers.passed()
                continue
            }
            switch reaction.withLock({ $0 }) {
            case .exit(let message):
                if let message { DescriptorOutput.write(message, to: STDERR_FILENO) }
                TerminalEcho.standardInput.restore()
                _exit(exitCode(for: arrival.number).rawValue)
            case .deliver(let handler):
                handler(arrival)
            }
        }
    }

    /// The next signal the handler wrote; `nil` if the read was interrupted.
    private static func next() -> Arrival? {
        var record: Int32 = 0
        guard read(pipeEnds.read, &record, 4) == 4 else { return nil }
        return Arrival(number: record & ~sentByKernel, typedAtTerminal: record & sentByKernel != 0)
    }
}
