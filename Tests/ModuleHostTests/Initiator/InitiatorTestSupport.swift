import Foundation
@testable import ModuleHost

/// An error thrown by test operations.
struct TestFailure: Error, CustomStringConvertible {
    let text: String
    init(_ text: String) { self.text = text }
    var description: String { text }
}

/// Records when each operation ran, as (id, start, end) intervals, plus the order of starts.
final class Recorder: Sendable {
    struct Interval: Sendable {
        let id: String
        let start: ContinuousClock.Instant
        var end: ContinuousClock.Instant?
    }

    private let state = Locked<[Interval]>([])

    /// Records the start, runs `work`, records the end.
    func run(_ id: String, _ work: @Sendable () async throws -> Void = {}) async throws {
        let start = ContinuousClock.now
        let position = state.withLock { intervals in
            intervals.append(Interval(id: id, start: start))
            return intervals.count - 1
        }
        try await work()
        let end = ContinuousClock.now
        state.withLock { $0[position].end = end }
    }

    /// A body that records itself under `id`.
    func body(_ id: String, _ work: @escaping @Sendable () async throws -> Void = {}) -> StartupOperationBody {
        { try await self.run(id, work) }
    }

    var intervals: [Interval] { state.withLock { $0 } }
    var startOrder: [String] { intervals.map(\.id) }
    func interval(_ id: String) -> Interval? { intervals.first { $0.id == id } }

    /// Whether `first` ended before `second` started.
    func finished(_ first: String, before second: String) -> Bool {
        guard let end = interval(first)?.end, let start = interval(second)?.start else { return false }
        return end <= start
    }
}

/// A cancellable one-shot latch: `wait()` suspends until `open()` (or `count` arrivals).
final class Latch: Sendable {
    private struct State {
        var remaining: Int
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
        var cancelled: Set<Int> = []
        var stubborn: [CheckedContinuation<Void, Never>] = []
        var nextID = 0
    }

    private let state: Locked<State>

    /// A latch that opens after `count` calls to `arrive()` (or one call to `open()`).
    init(count: Int = 1) { state = Locked(State(remaining: count)) }

    var isOpen: Bool { state.withLock { $0.remaining <= 0 } }

    func open() {
        let (waiters, stubborn) = state.withLock { state in
            state.remaining = 0
            defer { state.waiters = [:]; state.stubborn = [] }
            return (Array(state.waiters.values), state.stubborn)
        }
        for waiter in waiters { waiter.resume() }
        for waiter in stubborn { waiter.resume() }
    }

    func arrive() {
        let opens = state.withLock { state in
            state.remaining -= 1
            return state.remaining <= 0
        }
        if opens { open() }
    }

    /// Waits for the latch to open; throws `CancellationError` if the task is cancelled first.
    func wait() async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let result: Result<Void, CancellationError>? = state.withLock { state in
                    if state.remaining <= 0 { return .success(()) }
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let result { continuation.resume(with: result) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                if let waiter = state.waiters.removeValue(forKey: id) { return Optional(waiter) }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Waits for the latch to open, deliberately ignoring cancellation (without spinning).
    func waitIgnoringCancellation() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let openNow = state.withLock { state in
                if state.remaining <= 0 { return true }
                state.stubborn.append(continuation)
                return false
            }
            if openNow { continuation.resume() }
        }
    }
}

/// Tracks how many operations run at once and the most ever seen.
final class ConcurrencyCounter: Sendable {
    private let state = Locked<(current: Int, maximum: Int)>((0, 0))

    /// Enters; returns the number now running.
    func enter() -> Int {
        state.withLock { state in
            state.current += 1
            state.maximum = max(state.maximum, state.current)
            return state.current
        }
    }

    func leave() { state.withLock { $0.current -= 1 } }

    var maximum: Int { state.withLock { $0.maximum } }
}

/// A thread-safe box for one value.
final class Box<Value: Sendable>: Sendable {
    private let state: Locked<Value>
    init(_ value: Value) { state = Locked(value) }
    var value: Value {
        get { state.withLock { $0 } }
    }
    func set(_ value: Value) { state.withLock { $0 = value } }
    func update(_ change: (inout Value) -> Void) { state.withLock { change(&$0) } }
}

extension StartupReport {
    /// The state of an operation, or `nil` when the report has no such operation.
    func state(_ identifier: String) -> StartupReport.OperationRecord.State? { record(identifier)?.state }
}

extension Initiator {
    /// An initiator of two at a time with three operations: `slow` (`.asyncHigh`) opens `started` and then waits
    /// for `release`, ignoring cancellation; `afterSlow` depends on it; `later` runs in the `.low` phase. For
    /// tests that cancel while `slow` runs.
    static func slowWithFollowers(started: Latch, release: Latch) throws -> Initiator {
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("slow", priority: .asyncHigh) {
            started.open()
            await release.waitIgnoringCancellation()
        }
        try initiator.add("afterSlow", priority: .asyncHigh, dependencies: ["slow"]) {}
        try initiator.add("later", priority: .low) {}
        return initiator
    }
}
