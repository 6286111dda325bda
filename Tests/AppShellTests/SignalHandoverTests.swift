#if os(Linux)
import Glibc
import Testing

@testable import AppShell

/// A handler that stands for dispatch's in these tests.
private let standIn: @convention(c) (Int32) -> Void = { _ in }

/// The hand-over of SIGINT and SIGTERM to dispatch, in this process: each test saves the signals' handlers and
/// restores them. Only handlers are set, never `SIG_IGN` (which a child process would inherit through `exec`).
@Suite("Signal hand-over", .serialized)
struct SignalHandoverTests {
    private static let signals = [SIGINT, SIGTERM]

    /// Runs `body` with SIGINT and SIGTERM at their default action, then restores what they had.
    private func withDefaultHandlers(_ body: () -> Void) {
        var saved: [sigaction] = []
        for number in Self.signals {
            var action = sigaction()
            sigaction(number, nil, &action)
            saved.append(action)
        }
        for number in Self.signals { signal(number, SIG_DFL) }
        body()
        for (index, number) in Self.signals.enumerated() { sigaction(number, &saved[index], nil) }
    }

    private func handlers() -> [UInt?] {
        Self.signals.map(SignalHandover.handler(of:))
    }

    private var standInBits: UInt { unsafeBitCast(standIn, to: UInt.self) }
    private var quietExitBits: UInt { unsafeBitCast(SignalExit.quietExit, to: UInt.self) }

    @Test func theQuietExitHoldsTheSignalsUntilDispatchsHandlersReplaceIt() {
        withDefaultHandlers {
            var heldWhileMaking: [UInt?] = []
            let outcome = SignalHandover.run {
                heldWhileMaking = handlers()
                for number in Self.signals { signal(number, standIn) }  // what dispatch does, later, on its thread
            }
            #expect(heldWhileMaking == [quietExitBits, quietExitBits], "a signal before the hand-over would be lost")
            #expect(outcome == .handedOver)
            #expect(handlers() == [standInBits, standInBits])
        }
    }

    /// Dispatch installs its handler once per signal and process; a signal that already has one (an earlier
    /// source's) keeps it, and nothing is waited for.
    @Test func aSignalThatAlreadyHasAHandlerKeepsIt() {
        withDefaultHandlers {
            for number in Self.signals { signal(number, standIn) }
            var seenWhileMaking: [UInt?] = []
            let outcome = SignalHandover.run(waitingAtMost: .seconds(3_600)) { seenWhileMaking = handlers() }
            #expect(seenWhileMaking == [standInBits, standInBits])
            #expect(outcome == .handedOver)
            #expect(handlers() == [standInBits, standInBits])
        }
    }

    @Test func aHandOverThatNeverHappensEndsAtItsLimitKeepingTheQuietExit() {
        withDefaultHandlers {
            let outcome = SignalHandover.run(waitingAtMost: .milliseconds(1)) {}
            #expect(outcome == .timedOut)
            #expect(handlers() == [quietExitBits, quietExitBits])
        }
    }

    /// The hand-over runs on a thread of the cooperative pool, whose mask blocks these signals; it stays as it was,
    /// so that threads made from it later are not interrupted by them.
    @Test func theCallingThreadsSignalMaskIsUnchanged() {
        withDefaultHandlers {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            for number in Self.signals { sigaddset(&blocked, number) }
            var before = sigset_t()
            pthread_sigmask(SIG_BLOCK, &blocked, &before)
            var during = sigset_t()
            SignalHandover.run { for number in Self.signals { signal(number, standIn) } }
            pthread_sigmask(SIG_SETMASK, &before, &during)
            #expect(Self.signals.allSatisfy { sigismember(&during, $0) == 1 }, "the hand-over unblocked a signal")
        }
    }
}
#endif
