/// The initiator's mutable state, always accessed under its mutex.
struct InitiatorState {
    /// Where the initiator is in its life.
    enum Lifecycle { case notStarted, running, finished }

    /// A point in the run that callers can wait for.
    enum Milestone { case blockingSettled, finished }

    /// A suspended caller waiting for a milestone.
    struct Waiter {
        var milestone: Milestone
        var continuation: CheckedContinuation<Void, Never>
    }

    /// Operations added in code, in the order added.
    var added: [StartupOperation] = []
    var lifecycle: Lifecycle = .notStarted
    /// The validated plan, once started.
    var plan: StartupPlan?
    /// The clock reading taken at `start()`; all report times are offsets from it.
    var origin: ContinuousClock.Instant?
    /// One record per planned operation, indexed by registration index.
    var records: [OperationRecord] = []
    /// Registration indices in plan order, for reports.
    var reportOrder: [Int] = []
    /// One record per phase, in phase order.
    var phases: [PhaseRecord] = Initiator.Priority.allCases.map { PhaseRecord(phase: $0) }
    var readySignalled = false
    var idleSignalled = false
    /// The driver, suspended until the host signals ready or idle.
    var signalWaiter: CheckedContinuation<Void, Never>?
    var blockingSettled = false
    var cancelRequested = false
    /// Set when a required blocking operation did not succeed; later phases are skipped with it.
    var stopReason: String?
    var driver: Task<Void, Never>?
    var waiters: [Int: Waiter] = [:]
    /// Waiter ids whose task was cancelled before they suspended.
    var abandonedWaiters: Set<Int> = []
    var nextID = 0
    var subscribers: [Int: AsyncStream<InitiatorEvent>.Continuation] = [:]

    /// Whether `milestone` has been reached.
    func reached(_ milestone: Milestone) -> Bool {
        switch milestone {
        case .blockingSettled: blockingSettled || lifecycle == .finished
        case .finished: lifecycle == .finished
        }
    }

    /// A fresh id for a waiter or subscriber.
    mutating func makeID() -> Int {
        nextID += 1
        return nextID
    }

    /// The current report: plan order once started, added operations as pending before.
    func makeReport() -> StartupReport {
        guard plan != nil || !records.isEmpty else {
            let pending = added.map {
                OperationRecord(identifier: $0.identifier, module: $0.module, phase: $0.priority,
                                dependencies: $0.dependencies, failurePolicy: $0.effectiveFailurePolicy)
            }
            return StartupReport(operations: pending, phases: phases, wasCancelled: cancelRequested)
        }
        return StartupReport(operations: reportOrder.map { records[$0] }, phases: phases,
                             wasCancelled: cancelRequested)
    }

    /// Resumes-to-be of every waiter whose milestone has been reached (removed from the state).
    mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
        let ready = waiters.filter { reached($0.value.milestone) }
        for id in ready.keys { waiters[id] = nil }
        return ready.values.map(\.continuation)
    }
}
