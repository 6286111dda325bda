import ModuleHost
import Testing

@testable import AppShell

/// A signal stops a module command that is still busy, without waiting for it.
@Suite("app-shell signal race")
struct SignalRaceTests {
    /// Hands out the handler the race installs, so a test can deliver a "signal" itself.
    private final class HandlerSlot: Sendable {
        private let handler = Locked<(@Sendable (Int32) -> Void)?>(nil)
        func install(_ new: @escaping @Sendable (Int32) -> Void) { handler.withLock { $0 = new } }
        func fire(_ number: Int32) { handler.withLock { $0 }?(number) }
    }

    @Test func aSignalWinsOverACommandThatNeverFinishes() async {
        let slot = HandlerSlot()
        let started = AsyncStream<Void>.makeStream()
        let blocker = AsyncStream<Void>.makeStream()
        defer { blocker.continuation.finish() }
        let race = Task {
            await SignalRace.run(installingHandler: slot.install) {
                started.continuation.yield()
                // Busy until the test ends: nothing is ever yielded to it.
                for await _ in blocker.stream {}
                return .ok
            }
        }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        slot.fire(15)
        #expect(await race.value == .signal(15))
    }

    @Test func aCommandThatFinishesGivesItsStatus() async {
        let slot = HandlerSlot()
        #expect(await SignalRace.run(installingHandler: slot.install) { .refused } == .finished(.refused))
        slot.fire(2)  // after the race the handler does nothing
    }
}
