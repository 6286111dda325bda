/// Runs one phase: starts each operation as soon as its same-phase dependencies have succeeded, at most
/// `limit` at a time, always picking the earliest-registered ready operation (a min-heap of registration
/// indices).
///
/// The serial `.high` phase runs in one main-actor turn: the bodies are called one after another from the
/// main actor, with no hop between them. The concurrent phases run their bodies as child tasks of one task
/// group, `.low` and `.idle` ones created at background priority. Only an operation with a timeout pays for a
/// race (``OperationRunner``), so that a body ignoring cancellation cannot hold startup hostage.
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
        var frontier = PhaseFrontier(plan: plan, phase: phase, members: members)
        initiator.recordReady(frontier.initiallyReady)
        if phase.isSerial {
            await runSerially(frontier)
        } else {
            await runConcurrently(&frontier)
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
            let operation = plan.operations[index]
            let outcome: OperationOutcome
            if let timeout = operation.timeout {
                outcome = await OperationRunner.run(operation.body, timeout: timeout, onMainActor: true, priority: nil)
            } else {
                // The body is nonisolated(nonsending): called from here, it runs on the main actor.
                do { try await operation.body(); outcome = .succeeded } catch { outcome = .failed(OperationRunner.describe(error)) }
            }
            ready.removeAll(keepingCapacity: true)
            if outcome.isSuccess { frontier.complete(index, into: &ready) }
            // Finished at the next step's clock reading, which is also when the next operation starts.
            finished = FinishedOperation(index: index, outcome: outcome, finishedAt: nil)
        }
    }

    /// Runs the phase's operations as child tasks, at most `limit` at a time.
    private func runConcurrently(_ frontier: inout PhaseFrontier) async {
        let taskPriority: TaskPriority? = (phase == .low || phase == .idle) ? .background : nil
        let initiator = self.initiator
        let operations = plan.operations
        let dependents = plan.dependentIndices
        let limit = self.limit
        // A child only runs its body and notes when it ended; this task records it (with the dependents it made
        // ready, and the operations it starts in the freed slots, under one lock), so children take no lock.
        await withTaskGroup(of: FinishedOperation.self) { group in
            var running = 0
            var finished: FinishedOperation?
            var ready: [Int] = []
            var started: [Int] = []
            while true {
                initiator.recordStep(finished: finished, ready: ready, queue: &frontier.queue, slots: limit - running,
                                     started: &started, dependents: dependents)
                for index in started {
                    running += 1
                    let body = operations[index].body
                    // A child captures only what it uses: its index and body (and its limits when it has a timeout).
                    if let timeout = operations[index].timeout {
                        group.addTask(priority: taskPriority) {
                            let outcome = await OperationRunner.run(body, timeout: timeout, onMainActor: false,
                                                                    priority: taskPriority)
                            return FinishedOperation(index: index, outcome: outcome, finishedAt: StartupClock.now)
                        }
                    } else {
                        group.addTask(priority: taskPriority) {
                            // Nonsending: the body runs on this child task, off the main actor, at its priority.
                            let outcome: OperationOutcome
                            do { try await body(); outcome = .succeeded } catch {
                                outcome = .failed(OperationRunner.describe(error))
                            }
                            return FinishedOperation(index: index, outcome: outcome, finishedAt: StartupClock.now)
                        }
                    }
                }
                guard running > 0, let result = await group.next() else { break }
                running -= 1
                ready.removeAll(keepingCapacity: true)
                if result.outcome.isSuccess { frontier.complete(result.index, into: &ready) }
                finished = result
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
