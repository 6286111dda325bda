import ModuleHost
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One thing the command loop reacts to: a line of input, a line too long to read, the end of input, or a signal.
enum ShellEvent: Sendable, Equatable {
    case line(String)
    /// A line longer than ``LineReader/defaultLimit`` bytes, skipped unread: its text is never kept or shown.
    case tooLong
    case endOfInput
    case signal(Int32)
}

/// Merges standard input and SIGINT/SIGTERM into one stream of ``ShellEvent``s.
///
/// Lines are read on demand by a dedicated thread (``requestLine(echo:)``), at most 64 KiB each, so a password
/// can be read with echo off and a blocked read never holds up a signal. Signals are caught with dispatch sources,
/// so the shell shuts down in order instead of dying mid-write; the first one is remembered, and a handler
/// installed after it arrived is called at once (a signal at any stage ends the program).
final class ShellEvents: Sendable {
    let stream: AsyncStream<ShellEvent>
    private let continuation: AsyncStream<ShellEvent>.Continuation
    private let requests = DispatchSemaphore(value: 0)
    private let echoOff = LockedFlag()
    private let signalSources: SignalSources
    private let onSignal = LockedHandler()
    private let received = Locked<Int32?>(nil)

    init(inputIsTerminal: Bool) {
        let (stream, continuation) = AsyncStream<ShellEvent>.makeStream()
        self.stream = stream
        self.continuation = continuation
        var sources: [DispatchSourceSignal] = []
        let handler = onSignal
        let received = received
        SignalHandover.run {
            for number in [SIGINT, SIGTERM] {
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    received.withLock { $0 = $0 ?? number }
                    handler.call(number)
                    continuation.yield(.signal(number))
                }
                source.resume()
                sources.append(source)
            }
        }
        signalSources = SignalSources(sources: sources)
        let requests = requests
        let echoOff = echoOff
        DetachedThread.start(name: "app-shell input") {
            let lines = LineReader(descriptor: STDIN_FILENO)
            while true {
                requests.wait()
                let hideEcho = inputIsTerminal && echoOff.take()
                switch hideEcho ? Self.readWithoutEcho(lines) : lines.next() {
                case .text(let line): continuation.yield(.line(line))
                case .tooLong: continuation.yield(.tooLong)
                case .end:
                    continuation.yield(.endOfInput)
                    return
                }
            }
        }
    }

    /// Also calls `handler` (on a background queue) when a signal arrives, e.g. to cancel startup; at once (on the
    /// caller's thread) if one already has: the program is ending, whatever stage installs the handler.
    func setSignalHandler(_ handler: @escaping @Sendable (Int32) -> Void) {
        onSignal.set(handler)
        if let number = signalReceived { handler(number) }
    }

    /// The first signal caught, if any.
    var signalReceived: Int32? { received.withLock { $0 } }

    /// Asks the reader thread for the next line; it arrives as a ``ShellEvent/line(_:)`` in ``stream``.
    func requestLine(echo: Bool = true) {
        if !echo { echoOff.set() }
        requests.signal()
    }

    /// Reads a line with the terminal's echo off. Once the shell is ending (``restoreTerminal()`` ran) echo is
    /// left on and nothing is read.
    private static func readWithoutEcho(_ lines: LineReader) -> LineReader.Line {
        switch TerminalEcho.standardInput.silence() {
        case .closed:
            return .end
        case .unavailable:
            return lines.next()
        case .silenced:
            defer {
                TerminalEcho.standardInput.unsilence()
                DescriptorOutput.write("\n", to: STDERR_FILENO)
            }
            return lines.next()
        }
    }

    /// Turns echo back on if a password read left it off, and keeps it on; the shell calls it on every way out,
    /// because a signal ends the process while the reader thread is still blocked in a read.
    static func restoreTerminal() {
        TerminalEcho.standardInput.restore()
    }
}

/// Keeps the signal sources alive; dispatch sources are thread-safe once resumed.
private struct SignalSources: @unchecked Sendable {
    let sources: [DispatchSourceSignal]
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

/// A signal callback that can be installed after the sources are running.
final class LockedHandler: Sendable {
    private let handler = Locked<(@Sendable (Int32) -> Void)?>(nil)

    func set(_ handler: @escaping @Sendable (Int32) -> Void) { self.handler.withLock { $0 = handler } }

    func call(_ number: Int32) {
        let handler = self.handler.withLock { $0 }
        handler?(number)
    }
}
