/// The shared state of one concurrent phase's workers (``PhaseScheduler``): its frontier and how many workers run.
final class PhaseWork: Sendable {
    private struct State: Sendable {
        var frontier: PhaseFrontier
        var running = 0
    }

    private let initiator: Initiator
    private let operations: [StartupOperation]
    private let dependents: AdjacencyList
    private let limit: Int
    private let taskPriority: TaskPriority?
    private let state: Locked<State>

    init(initiator: Initiator, operations: [StartupOperation], dependents: AdjacencyList, limit: Int,
         taskPriority: TaskPriority?, frontier: PhaseFrontier) {
        self.initiator = initiator
        self.operations = operations
        self.dependents = dependents
        self.limit = limit
        self.taskPriority = taskPriority
        state = Locked(State(frontier: frontier))
    }

    /// Marks ready operations running, as many as there are free slots; `started` gets their indices, one worker each.
    func startWaiting(into started: inout [Int]) {
        state.withLock { state in
            initiator.recordStep(finished: nil, ready: [], queue: &state.frontier.queue, slots: limit - state.running,
                                 started: &started, dependents: dependents)
            state.running += started.count
        }
    }

    /// Runs the operation at `first`, then the next ready ones, until none is ready or a free slot needs a worker.
    func runWorker(from first: Int) async {
        var index = first
        var ready: [Int] = []
        var started: [Int] = []
        while true {
            let outcome: OperationOutcome
            if let timeout = operations[index].timeout {
                let work = operations[index].work
                outcome = await OperationRunner.run({ try await work.run() }, timeout: timeout, onMainActor: false,
                                                    priority: taskPriority)
            } else {
                // Nonsending: the work runs on this child task, off the main actor, at its priority.
                do { try await operations[index].work.run(); outcome = .succeeded } catch {
                    outcome = .failed(OperationRunner.describe(error))
                }
            }
            let finished = FinishedOperation(index: index, outcome: outcome, finishedAt: StartupClock.now)
            let cancelled = Task.isCancelled
            let next: Int? = state.withLock { state in
                ready.removeAll(keepingCapacity: true)
                if outcome.isSuccess { state.frontier.complete(index, into: &ready) }
                // A free slot and a waiting operation: hand back, so that this task starts workers for both. So does a
                // worker whose task the body cancelled: the next operation gets a task of its own, not a cancelled one.
                let handBack = cancelled || (state.running < limit && !state.frontier.queue.isEmpty)
                initiator.recordStep(finished: finished, ready: ready, queue: &state.frontier.queue,
                                     slots: handBack ? 0 : 1, started: &started, dependents: dependents)
                guard let next = started.first else {
                    state.running -= 1
                    return nil
                }
                return next
            }
            guard let next else { return }
            index = next
        }
    }
}
