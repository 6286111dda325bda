import ModuleHost
import Testing

@testable import AppShell

#if canImport(Glibc)
import Glibc
#endif

/// A command races the signals that end the shell and, at the prompt, Ctrl-C (``CommandRace``).
@Suite("app-shell command race")
struct CommandRaceTests {
    /// Hands out the handlers the race installs, so a test can deliver a "signal" or a "Ctrl-C" itself.
    private final class Slots: Sendable {
        private let signal = Locked<(@Sendable (Int32) -> Void)?>(nil)
        private let interrupt = Locked<(@Sendable () -> Void)?>(nil)
        /// Whether a Ctrl-C came before the command started.
        let pending: Bool

        init(pending: Bool = false) { self.pending = pending }

        func installSignal(_ new: @escaping @Sendable (Int32) -> Void) { signal.withLock { $0 = new } }
        func installInterrupt(_ new: (@Sendable () -> Void)?) -> Bool {
            interrupt.withLock { $0 = new }
            return pending
        }
        func fire(_ number: Int32) { signal.withLock { $0 }?(number) }
        func ctrlC() { interrupt.withLock { $0 }?() }
    }

    /// A command that says when it started and then waits until ``release()`` (or its cancellation, if it heeds it).
    private final class Command: Sendable {
        let started = AsyncStream<Void>.makeStream()
        let stillRunning = AsyncStream<Void>.makeStream()
        private let waiting = Locked<(resumed: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))

        func waitUntilStarted() async {
            var iterator = started.stream.makeAsyncIterator()
            await iterator.next()
        }

        /// Ends the wait (once; later calls do nothing).
        func release() {
            let continuation = waiting.withLock { state in
                defer { state = (true, nil) }
                return state.resumed ? nil : state.continuation
            }
            continuation?.resume()
        }

        func body(heedsCancellation: Bool) -> @Sendable () async -> ExitCode {
            { [self] in
                started.continuation.yield()
                if heedsCancellation {
                    await withTaskCancellationHandler { await wait() } onCancel: { self.release() }
                } else {
                    await wait()
                }
                return .ok
            }
        }

        private func wait() async {
            await withCheckedContinuation { continuation in
                let resumeNow = waiting.withLock { state in
                    if !state.resumed { state.continuation = continuation }
                    return state.resumed
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    @Test func aSignalWinsOverACommandThatNeverFinishes() async {
        let slots = Slots()
        let command = Command()
        defer { command.release() }
        let race = Task {
            await CommandRace.run(signals: slots.installSignal, interrupts: slots.installInterrupt,
                                  command.body(heedsCancellation: false))
        }
        await command.waitUntilStarted()
        slots.fire(SIGTERM)
        #expect(await race.value == .signal(SIGTERM))
    }

    @Test func aCommandThatFinishesGivesItsStatus() async {
        let slots = Slots()
        #expect(await CommandRace.run(signals: slots.installSignal, interrupts: slots.installInterrupt) { .refused } == .finished(.refused))
        slots.fire(SIGINT)  // after the race the handler does nothing
    }

    @Test func ctrlCCancelsTheCommandAndWaitsForItToEnd() async {
        let slots = Slots()
        let command = Command()
        let race = Task {
            await CommandRace.run(signals: slots.installSignal, interrupts: slots.installInterrupt,
                                  command.body(heedsCancellation: true))
        }
        await command.waitUntilStarted()
        slots.ctrlC()
        #expect(await race.value == .interrupted)
    }

    @Test func aCommandThatIgnoresCancellationIsReportedAndASecondCtrlCEndsTheShell() async {
        let slots = Slots()
        let command = Command()
        defer { command.release() }
        let race = Task {
            await CommandRace.run(signals: slots.installSignal, interrupts: slots.installInterrupt, grace: .milliseconds(10),
                                  stillRunning: { command.stillRunning.continuation.yield() },
                                  command.body(heedsCancellation: false))
        }
        await command.waitUntilStarted()
        slots.ctrlC()
        var reports = command.stillRunning.stream.makeAsyncIterator()
        await reports.next()
        slots.ctrlC()
        #expect(await race.value == .signal(SIGINT))
    }

    @Test func aCtrlCBeforeTheCommandStartedMeansItNeverStarts() async {
        let slots = Slots(pending: true)
        let ran = Locked(false)
        let outcome = await CommandRace.run(signals: slots.installSignal, interrupts: slots.installInterrupt) {
            ran.withLock { $0 = true }
            return .ok
        }
        #expect(outcome == .interrupted)
        #expect(!ran.withLock { $0 })
    }

    @Test func withoutInterruptsTheRaceIsOnlyAgainstSignals() async {
        let slots = Slots()
        #expect(await CommandRace.run(signals: slots.installSignal, interrupts: nil) { .usage } == .finished(.usage))
    }
}
