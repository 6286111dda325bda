/// The initiator's mutable state, always accessed under its mutex.
///
/// Where the initiator is in its life is one value, ``Lifecycle``; the records are the report's ledger,
/// filled in as operations run; the rest is bookkeeping for waiters and subscribers.
struct InitiatorState {
    /// What the initiator knows before its run begins (the operations added in code are kept in `added`).
    struct Setup {
        /// Whether `cancel()` came before the run began: `start()` then plans, runs nothing and throws.
        var cancelled = false
    }

    /// How far a running initiator has got.
    enum Stage {
        /// `.high` and `.asyncHigh` are running; `start()` waits for them.
        case blockingPhases
        /// The blocking phases have settled; the driver waits for the host to signal `level`.
        case awaitingHost(level: HostSignal, driver: HostWaiter)
        /// The blocking phases have settled; later phases run as the host's signals allow.
        case laterPhases
    }

    /// Where the initiator is in its life; the cases are listed in order and each holds what it needs.
    enum Lifecycle {
        /// `start()` has not been called.
        case notStarted(Setup)
        /// `start()` is reading the modules' operations and validating the plan.
        case planning(Setup)
        /// The plan is running, driven by `driver`.
        case running(plan: StartupPlan, driver: Task<Void, Never>, stage: Stage)
        /// Startup was cancelled or stopped by a required failure; the driver is winding down.
        case stopping(plan: StartupPlan, driver: Task<Void, Never>, reason: StartupStopReason)
        /// Every phase settled (`reason == nil`), or startup stopped and everything left was settled.
        case finished(plan: StartupPlan?, reason: StartupStopReason?)
    }

    /// How far the host has got, as it signalled (remembered from any point, even before `start()`).
    enum HostSignal: Int, Comparable {
        case none, ready, idle

        static func < (lhs: HostSignal, rhs: HostSignal) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A point in the run that callers can wait for.
    enum Milestone { case blockingSettled, finished }

    /// The driver, suspended until the host signals; a class, because `CheckedContinuation` is a resilient
    /// type that would make the lifecycle, and so the whole state, a value of run-time layout.
    final class HostWaiter: Sendable {
        let continuation: CheckedContinuation<Void, Never>

        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
    }

    /// A suspended caller waiting for a milestone.
    struct Waiter {
        var id: Int
        var milestone: Milestone
        var continuation: CheckedContinuation<Void, Never>
    }

    var lifecycle: Lifecycle = .notStarted(Setup()) {
        didSet {
            (acceptsOperations, isCancelled, isRunning) = (lifecycle.isNotStarted, lifecycle.isCancelled, lifecycle.isRunning)
        }
    }
    /// Whether operations may still be added (`start()` has not been called); kept in step with `lifecycle`.
    private(set) var acceptsOperations = true
    /// Whether startup was cancelled (before or during its run); kept in step with `lifecycle`, so that the
    /// per-operation paths read a flag instead of copying the lifecycle's payload.
    private(set) var isCancelled = false
    /// Whether the driver should go on to the next phase: running, neither stopped nor cancelled; kept in step
    /// with `lifecycle`.
    private(set) var isRunning = false
    /// Operations added in code, in the order added, until `start()` takes them.
    var added: [StartupOperation] = []
    var hostSignal: HostSignal = .none
    /// The clock reading taken at `start()`; all report times are offsets from it.
    var origin: Duration?
    /// One record per planned operation, in plan order: a report shares this array instead of copying it.
    var records: [StartupReport.OperationRecord] = []
    /// The position in `records` of each registration index.
    var positions: [Int] = []
    /// One record per phase, in phase order.
    var phases: [StartupReport.PhaseRecord] = ModuleStartupOperation.Priority.allCases.map { StartupReport.PhaseRecord(phase: $0) }
    /// Tasks waiting for a milestone: a handful, so a list.
    var waiters: [Waiter] = []
    /// Waiter ids whose task was cancelled before they suspended.
    var abandonedWaiters: Set<Int> = []
    var nextID = 0
    var subscribers: [Int: AsyncStream<Initiator.Event>.Continuation] = [:]

    /// The validated plan, once planned.
    var plan: StartupPlan? {
        switch lifecycle {
        case .notStarted, .planning: nil
        case .running(let plan, _, _), .stopping(let plan, _, _): plan
        case .finished(let plan, _): plan
        }
    }

    /// Why startup stopped, once it has.
    var stopReason: StartupStopReason? {
        switch lifecycle {
        case .notStarted, .planning, .running: nil
        case .stopping(_, _, let reason): reason
        case .finished(_, let reason): reason
        }
    }

    /// Whether the initiator has finished.
    var isFinished: Bool {
        if case .finished = lifecycle { return true }
        return false
    }

    /// Whether `milestone` has been reached.
    func reached(_ milestone: Milestone) -> Bool {
        switch (milestone, lifecycle) {
        case (_, .finished): true
        case (.blockingSettled, .running(_, _, .awaitingHost)), (.blockingSettled, .running(_, _, .laterPhases)): true
        default: false
        }
    }

    /// Adds an operation before the start; `false` once `start()` has been called.
    mutating func add(_ operation: StartupOperation) -> Bool {
        guard acceptsOperations else { return false }
        added.append(operation)
        return true
    }

    /// Records that `cancel()` was called before the run began; `false` when the run has begun.
    mutating func cancelBeforeRun() -> Bool {
        switch lifecycle {
        case .notStarted(var setup):
            setup.cancelled = true
            lifecycle = .notStarted(setup)
        case .planning(var setup):
            setup.cancelled = true
            lifecycle = .planning(setup)
        case .running, .stopping, .finished:
            return false
        }
        return true
    }

    /// A fresh id for a waiter or subscriber.
    mutating func makeID() -> Int {
        nextID += 1
        return nextID
    }

    /// The current report: plan order once planned, added operations as pending before.
    func makeReport() -> StartupReport {
        switch lifecycle {
        case .notStarted(let setup), .planning(let setup):
            let pending = added.map { StartupReport.OperationRecord(pending: $0) }
            return StartupReport(operations: pending, phases: phases, wasCancelled: setup.cancelled)
        case .running, .stopping, .finished:
            // Records are kept in plan order, so the report shares the array: O(1).
            return StartupReport(operations: records, phases: phases, wasCancelled: isCancelled)
        }
    }

    /// Resumes-to-be of every waiter whose milestone has been reached (removed from the state).
    mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
        guard waiters.contains(where: { reached($0.milestone) }) else { return [] }
        let all = waiters
        waiters = all.filter { !reached($0.milestone) }
        return all.filter { reached($0.milestone) }.map(\.continuation)
    }

    /// Ends the subscriptions: returns every subscriber, removed from the state.
    mutating func takeSubscribers() -> [AsyncStream<Initiator.Event>.Continuation] {
        defer { subscribers = [:] }
        return Array(subscribers.values)
    }
}

extension InitiatorState.Lifecycle {
    /// Whether startup was cancelled (before or during its run).
    fileprivate var isCancelled: Bool {
        switch self {
        case .notStarted(let setup), .planning(let setup): setup.cancelled
        case .running: false
        case .stopping(_, _, let reason), .finished(_, let reason?): reason == .cancelled
        case .finished(_, nil): false
        }
    }

    /// Whether `start()` has not been called.
    fileprivate var isNotStarted: Bool {
        if case .notStarted = self { return true }
        return false
    }

    /// Whether the plan is running, neither stopped nor cancelled.
    fileprivate var isRunning: Bool {
        if case .running = self { return true }
        return false
    }
}
