/// Runs one phase: starts each operation as soon as its same-phase dependencies have succeeded, at most
/// `limit` at a time, always picking the earliest-registered ready operation (a min-heap of registration
/// indices).
///
/// The serial `.high` phase runs in one main-actor turn: the bodies are called one after another from the
/// main actor, with no hop between them. The concurrent phases run their bodies on the child tasks of one task
/// group (``PhaseWork``: each child runs operations until none is ready for it), `.low` and `.idle` ones created at
/// background priority. Only an operation with a timeout pays for a race (``OperationRunner``), so that a body
/// ignoring cancellation cannot hold startup hostage.
struct PhaseScheduler {
    let initiator: Initiator
    let plan: StartupPlan
    let phase: ModuleStartupOperation.Priority
    let limit: Int

    /// Runs the phase until every operation in it has settled (or startup was cancelled).
    ///
    /// `.low` and `.idle` run in one task created at background priority (a child task cannot run below its
    /// parent), whose child tasks inherit it: one hand-off per phase, none per operation. The driver waits
    /// for that task through a continuation, so that waiting does not raise its priority.
    func run() async {
        guard phase == .low || phase == .idle else { return await runHere() }
        let scheduler = self
        _ = await OperationRunner.run({ await scheduler.runHere() }, timeout: nil, onMainActor: false,
                                      priority: .background)
    }

    /// Runs the phase on the current task.
    private func runHere() async {
        let members = initiator.pendingOperations(in: phase, of: plan)
        guard !members.isEmpty else { return }
        let frontier = PhaseFrontier(plan: plan, phase: phase, members: members)
        initiator.recordReady(frontier.initiallyReady)
        if phase.isSerial {
            await runSerially(frontier)
        } else {
            await runConcurrently(frontier)
        }
    }

    /// Runs the phase's operations one at a time, all from the main actor. One lock and one clock reading per
    /// operation: an operation's finish and its successor's start are recorded together.
    @MainActor
    private func runSerially(_ frontier: PhaseFrontier) async {
        var frontier = frontier
        let dependents = plan.dependentIndices
        var finished: FinishedOperation?
        var ready: [Int] = []
        var started: [Int] = []
        while true {
            initiator.recordStep(finished: finished, ready: ready, queue: &frontier.queue, slots: 1,
                                 started: &started, dependents: dependents)
            guard let index = started.first else { break }
            // The work and timeout are read in place: a copy of the whole operation retained all it holds.
            let work = plan.operations[index].work
            let outcome: OperationOutcome
            if let timeout = plan.operations[index].timeout {
                outcome = await OperationRunner.run({ try await work.run() }, timeout: timeout, onMainActor: true, priority: nil)
            } else {
                // The work is nonisolated(nonsending): called from here, it runs on the main actor.
                do { try await work.run(); outcome = .succeeded } catch { outcome = .failed(OperationRunner.describe(error)) }
            }
            ready.removeAll(keepingCapacity: true)
            if outcome.isSuccess { frontier.complete(index, into: &ready) }
            // Finished at the next step's clock reading, which is also when the next operation starts.
            finished = FinishedOperation(index: index, outcome: outcome, finishedAt: nil)
        }
    }

    /// Runs the phase's operations on child tasks, at most `limit` at a time.
    ///
    /// A child is a worker, not one operation: after its operation ends it records the end (with the dependents
    /// that made ready) and takes the next ready operation itself, so a phase of many short operations pays for a
    /// few tasks and no hand-off per operation. A worker hands back to this task, which starts more workers, only
    /// when a slot is free and an operation is waiting for one, so the phase runs as wide as it did with a task per
    /// operation. The frontier and the running count are shared under one lock, which is also held while the step is
    /// recorded, so steps (and their events) are recorded one at a time, as before.
    private func runConcurrently(_ frontier: PhaseFrontier) async {
        let taskPriority: TaskPriority? = (phase == .low || phase == .idle) ? .background : nil
        let work = PhaseWork(initiator: initiator, operations: plan.operations, dependents: plan.dependentIndices,
                             limit: limit, taskPriority: taskPriority, frontier: frontier)
        await withTaskGroup(of: Void.self) { group in
            var started: [Int] = []
            while true {
                work.startWaiting(into: &started)
                for index in started {
                    group.addTask(priority: taskPriority) { await work.runWorker(from: index) }
                }
                // No worker left: nothing is running, and nothing ready was left for this task to start.
                guard await group.next() != nil else { break }
            }
        }
    }
}

/// The ready operations of one phase (a ``ReadyQueue`` of registration indices) and, for each member, how many
/// of its same-phase dependencies have not yet succeeded.
struct PhaseFrontier: Sendable {
    private let dependentIndices: AdjacencyList
    private let priorities: [ModuleStartupOperation.Priority]
    private let phase: ModuleStartupOperation.Priority
    private var remaining: [Int]
    var queue: ReadyQueue
    /// The members with no same-phase dependency, in order.
    let initiallyReady: [Int]

    init(plan: StartupPlan, phase: ModuleStartupOperation.Priority, members: [Int]) {
        dependentIndices = plan.dependentIndices
        priorities = plan.priorities
        self.phase = phase
        var remaining = [Int](repeating: 0, count: plan.operations.count)
        var ready: [Int] = []
        var queue = ReadyQueue(keyCount: plan.operations.count)
        for index in members {
            var count = 0
            for edge in plan.dependencyIndices.edges(of: index)
            where priorities[plan.dependencyIndices.neighbour(at: edge)] == phase {
                count += 1
            }
            remaining[index] = count
            if count == 0 { ready.append(index) }
        }
        for index in ready { queue.push(index) }  // the cursor is at 0: every one lands in the bitmap
        self.remaining = remaining
        self.queue = queue
        self.initiallyReady = ready
    }

    /// Counts the operation at `index` succeeded; pushes the same-phase dependents it made ready and appends
    /// them to `newlyReady`.
    mutating func complete(_ index: Int, into newlyReady: inout [Int]) {
        for edge in dependentIndices.edges(of: index) {
            let dependent = dependentIndices.neighbour(at: edge)
            guard priorities[dependent] == phase else { continue }
            remaining[dependent] -= 1
            if remaining[dependent] == 0 {
                newlyReady.append(dependent)
                queue.push(dependent)
            }
        }
    }
}
