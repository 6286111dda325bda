import ModuleHost

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Merges standard input and the signals into one stream of ``ShellInput/Input``s (never `interrupted`: that is
/// ``ShellInput``'s to say).
///
/// Lines are read on demand by a dedicated thread (``requestLine(echo:)``), at most 64 KiB each, so a password
/// can be read with echo off and a blocked read never holds up a signal; a read asked for by a command that is
/// cancelled ends early (``cancelRead()``). Signals come from ``Signals``' thread once the events take them
/// (``takeSignals()``), so the shell shuts down in order instead of dying mid-write; the first one is remembered,
/// and a handler installed after it arrived is called at once (a signal at any stage ends the program).
///
/// At the interactive prompt (``takeInterrupts()``), a Ctrl-C typed at the terminal is not a signal that ends the
/// shell: it goes to the handler of ``setInterruptHandler(_:)`` (the command running); with none, it is kept until
/// the next command starts (which it interrupts before it starts) or the prompt asks for a new line
/// (``forgetInterrupt()``).
final class ShellEvents: Sendable {
    let stream: AsyncStream<ShellInput.Input>
    private let continuation: AsyncStream<ShellInput.Input>.Continuation
    private let requests = LineRequests()
    private let echoOff = LockedFlag()
    private let wake = InputWake()
    /// The host lifecycle's signal handler, for the whole session; and the running command's (``CommandRace``).
    private let onSignal = Locked<(@Sendable (Int32) -> Void)?>(nil)
    private let onCommandSignal = Locked<(@Sendable (Int32) -> Void)?>(nil)
    private let received = Locked<Int32?>(nil)
    private let interrupts = Locked(Interrupts())

    /// Where Ctrl-C typed at the terminal goes.
    private struct Interrupts {
        /// Whether the interactive prompt takes them (otherwise they are SIGINT, like any other).
        var prompt = false
        /// The command running, which a Ctrl-C interrupts.
        var handler: (@Sendable () -> Void)?
        /// Whether a Ctrl-C came with no command running, since the prompt asked for the line.
        var pending = false
    }

    init(inputIsTerminal: Bool) {
        let (stream, continuation) = AsyncStream<ShellInput.Input>.makeStream()
        self.stream = stream
        self.continuation = continuation
        takeSignals()
        let requests = requests
        let echoOff = echoOff
        DetachedThread.start(name: "app-shell input") { [self] in
            let lines = LineReader(descriptor: STDIN_FILENO, wake: wake)
            while true {
                requests.wait()
                let hideEcho = inputIsTerminal && echoOff.take()
                let line = hideEcho ? Self.readWithoutEcho(lines) : lines.next()
                // A Ctrl-C found typed right after an edited line: it interrupts that line's command (so it is
                // delivered before the line is).
                if LineReader.interruptsAfterLine.take() { deliver(Signals.Arrival(number: SIGINT, typedAtTerminal: true)) }
                switch line {
                case .text(let text): continuation.yield(.line(text))
                case .tooLong: continuation.yield(.tooLong)
                case .end:
                    continuation.yield(.endOfInput)
                    return
                }
            }
        }
    }

    /// From now on the signals come here (after the manifest was read, say).
    func takeSignals() {
        Signals.react(.deliver { [self] arrival in deliver(arrival) })
    }

    /// From now on a Ctrl-C typed at the terminal interrupts the command instead of ending the shell (or, with
    /// `false`, ends it again, as when the prompt has ended and the shell shuts down).
    func takeInterrupts(_ taken: Bool = true) {
        interrupts.withLock { $0.prompt = taken }
    }

    /// Sets (or, with `nil`, removes) the handler a typed Ctrl-C calls; returns whether one came with no command
    /// running since the prompt asked for the line (then the command is interrupted before it starts).
    @discardableResult
    func setInterruptHandler(_ handler: (@Sendable () -> Void)?) -> Bool {
        interrupts.withLock { state in
            state.handler = handler
            defer { state.pending = false }
            return handler != nil && state.pending
        }
    }

    /// The prompt asks for a new line: a Ctrl-C that came before it no longer counts.
    func forgetInterrupt() {
        interrupts.withLock { $0.pending = false }
    }

    private func deliver(_ arrival: Signals.Arrival) {
        if arrival.number == SIGINT, arrival.typedAtTerminal {
            let (taken, handler) = interrupts.withLock { state in
                if state.prompt, state.handler == nil { state.pending = true }
                return (state.prompt, state.handler)
            }
            if taken {
                // No command running: the prompt's read ends (edited or not), and the prompt is shown again.
                if let handler { handler() } else { wake.cancel() }
                return
            }
        }
        received.withLock { $0 = $0 ?? arrival.number }
        onSignal.withLock { $0 }?(arrival.number)
        onCommandSignal.withLock { $0 }?(arrival.number)
        continuation.yield(.signal(arrival.number))
    }

    /// Also calls `handler` (on a background queue) when a signal arrives, e.g. to cancel startup; at once (on the
    /// caller's thread) if one already has: the program is ending, whatever stage installs the handler.
    func setSignalHandler(_ handler: @escaping @Sendable (Int32) -> Void) {
        install(handler, in: onSignal)
    }

    /// The same for the command running (``CommandRace``), beside the lifecycle's handler, which it never replaces:
    /// a signal after a command still cancels the later phases and gives the exit status.
    func setCommandSignalHandler(_ handler: @escaping @Sendable (Int32) -> Void) {
        install(handler, in: onCommandSignal)
    }

    private func install(_ handler: @escaping @Sendable (Int32) -> Void, in slot: Locked<(@Sendable (Int32) -> Void)?>) {
        slot.withLock { $0 = handler }
        if let number = signalReceived { handler(number) }
    }

    /// The first signal caught, if any.
    var signalReceived: Int32? { received.withLock { $0 } }

    /// Asks the reader thread for the next line; it arrives as a ``ShellInput/Input/line(_:)`` in ``stream``.
    func requestLine(echo: Bool = true) {
        if !echo { echoOff.set() }
        wake.arm()
        requests.signal()
    }

    /// Ends the read asked for last (when the command that asked is cancelled): it gives an interrupted line.
    func cancelRead() {
        wake.cancel()
    }

    /// Reads a line with the terminal's echo off. Once the shell is ending (``TerminalEcho/restore()`` ran) echo is
    /// left on and nothing is read.
    private static func readWithoutEcho(_ lines: LineReader) -> LineReader.Line {
        switch TerminalEcho.standardInput.silence() {
        case .closed:
            return .end
        case .unavailable:
            return lines.next()
        case .silenced:
            let line = lines.next()
            // Cancelled: what was typed of the password is thrown away before echo comes back on.
            if lines.wasCancelled { tcflush(STDIN_FILENO, TCIFLUSH) }
            TerminalEcho.standardInput.unsilence()
            DescriptorOutput.write("\n", to: STDERR_FILENO)
            return line
        }
    }
}

/// The lines asked for and not yet read: the input thread waits for one (a semaphore, without Dispatch).
final class LineRequests: @unchecked Sendable {
    private let condition = Condition()
    /// Guarded by `condition`.
    private var pending = 0

    /// Asks for one more line.
    func signal() {
        condition.lock()
        pending += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until a line is asked for, and takes the request.
    func wait() {
        condition.lock()
        while pending == 0 { condition.wait() }
        pending -= 1
        condition.unlock()
    }
}

/// A flag set by one thread and consumed by another.
final class LockedFlag: Sendable {
    private let value = Locked(false)

    func set() { value.withLock { $0 = true } }

    /// Returns the flag and clears it.
    func take() -> Bool {
        value.withLock { value in
            defer { value = false }
            return value
        }
    }
}
