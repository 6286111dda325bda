import ModuleHost
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One thing the command loop reacts to: a line of input, the end of input, or a signal.
enum ShellEvent: Sendable, Equatable {
    case line(String)
    case endOfInput
    case signal(Int32)
}

/// Merges standard input and SIGINT/SIGTERM into one stream of ``ShellEvent``s.
///
/// Lines are read on demand by a dedicated thread (``requestLine(echo:)``), so a password can be read with
/// echo off and a blocked read never holds up a signal. Signals are caught with dispatch sources, so the
/// shell shuts down in order instead of dying mid-write.
final class ShellEvents: Sendable {
    let stream: AsyncStream<ShellEvent>
    private let continuation: AsyncStream<ShellEvent>.Continuation
    private let requests = DispatchSemaphore(value: 0)
    private let echoOff = LockedFlag()
    private let signalSources: SignalSources
    private let onSignal = LockedHandler()

    init(inputIsTerminal: Bool) {
        let (stream, continuation) = AsyncStream<ShellEvent>.makeStream()
        self.stream = stream
        self.continuation = continuation
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            let handler = onSignal
            source.setEventHandler {
                handler.call(number)
                continuation.yield(.signal(number))
            }
            source.resume()
            sources.append(source)
        }
        signalSources = SignalSources(sources: sources)
        let requests = requests
        let echoOff = echoOff
        let reader = Thread {
            while true {
                requests.wait()
                let hideEcho = inputIsTerminal && echoOff.take()
                let line = hideEcho ? Self.readLineWithoutEcho() : readLine(strippingNewline: true)
                guard let line else {
                    continuation.yield(.endOfInput)
                    return
                }
                continuation.yield(.line(line))
            }
        }
        reader.name = "app-shell input"
        reader.start()
    }

    /// Also calls `handler` (on a background queue) when a signal arrives, e.g. to cancel startup.
    func setSignalHandler(_ handler: @escaping @Sendable (Int32) -> Void) {
        onSignal.set(handler)
    }

    /// Asks the reader thread for the next line; it arrives as a ``ShellEvent/line(_:)`` in ``stream``.
    func requestLine(echo: Bool = true) {
        if !echo { echoOff.set() }
        requests.signal()
    }

    /// The terminal settings from before echo was turned off, while it is off.
    private static let savedTerminal = Locked<termios?>(nil)

    private static func readLineWithoutEcho() -> String? {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return readLine(strippingNewline: true) }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        savedTerminal.withLock { $0 = original }
        // TCSANOW, not TCSAFLUSH: a password typed ahead must not be thrown away.
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            restoreTerminal()
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }

    /// Turns echo back on if a password read left it off; the shell calls it on every way out, because a
    /// signal ends the process while the reader thread is still blocked in `readLine`.
    static func restoreTerminal() {
        guard var original = savedTerminal.withLock({ saved -> termios? in defer { saved = nil }; return saved }) else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &original)
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
