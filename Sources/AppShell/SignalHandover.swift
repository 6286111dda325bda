#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands SIGINT and SIGTERM over to dispatch's signal sources without losing a signal that arrives meanwhile.
///
/// On Linux, dispatch installs its own handler for a signal on its manager thread, some time after the first
/// source for that signal is resumed. Until then a signal must not be ignored (Linux discards an ignored signal,
/// and the shell would run on, deaf to it): ``SignalExit/quietExit`` holds each signal, ending the program at
/// once (nothing has started yet), and the hand-over waits (microseconds) until dispatch's handler replaced it.
/// A signal that already has a handler (dispatch's, for an earlier source) is left alone: dispatch will not
/// install it again. The calling thread's signal mask is not changed. Elsewhere (kqueue-based dispatch), the
/// signals are ignored, as dispatch needs.
enum SignalHandover {
    /// How a hand-over ended.
    enum Outcome: Equatable {
        /// Dispatch's handlers replaced the quiet exit (or there was nothing to hand over).
        case handedOver
        /// Some signals still had the quiet exit at the deadline; it stays.
        case timedOut
    }

    /// Holds SIGINT and SIGTERM with the quiet exit where nothing handles them yet, runs `makeSources` (which makes
    /// and resumes the dispatch sources), and waits until dispatch's handlers are in place, at most `limit`.
    @discardableResult
    static func run(waitingAtMost limit: Duration = .seconds(5), _ makeSources: () -> Void) -> Outcome {
        #if os(Linux)
        let held = [SIGINT, SIGTERM].filter { handler(of: $0).map(isDefaultOrIgnored) ?? false }
        for number in held { signal(number, SignalExit.quietExit) }
        makeSources()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while held.contains(where: { handler(of: $0) == quietExitBits }) {
            guard clock.now < deadline else { return .timedOut }
            _ = sched_yield()
        }
        return .handedOver
        #else
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        makeSources()
        return .handedOver
        #endif
    }

    #if os(Linux)
    /// The address of `number`'s handler (0 for `SIG_DFL`, 1 for `SIG_IGN`); `nil` if it cannot be read.
    static func handler(of number: Int32) -> UInt? {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return nil }
        #if canImport(Glibc)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: UInt.self)
        #else
        return unsafeBitCast(current.__sa_handler.sa_handler, to: UInt.self)
        #endif
    }

    private static func isDefaultOrIgnored(_ handler: UInt) -> Bool {
        handler == 0 || handler == 1
    }

    private static let quietExitBits = unsafeBitCast(SignalExit.quietExit, to: UInt.self)
    #endif
}
