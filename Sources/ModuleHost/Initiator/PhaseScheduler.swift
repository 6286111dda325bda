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
    let phase: Initiator.Priority
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
        let members = initiator.pendingOperations(in: phase)
        guard !members.isEmpty else { return }
        var frontier = PhaseFrontier(plan: plan, phase: phase, members: members)
        initiator.recordReady(frontier.initiallyReady)
        if phase.isSerial {
            await runSerially(frontier)
        } else {
            await runConcurrently(&frontier)
        }
    }

    /// Runs the phase's operations one at a time, all from the main actor.
    @MainActor
    private func runSerially(_ frontier: PhaseFrontier) async {
        var frontier = frontier
        let dependents = plan.dependentIndices
        while let index = frontier.heap.pop() {
            guard initiator.recordStarted(index) else { continue }
            let operation = plan.operations[index]
            let outcome: OperationOutcome
            if let timeout = operation.timeout {
                outcome = await OperationRunner.run(operation.body, timeout: timeout, onMainActor: true, priority: nil)
            } else {
                // The body is nonisolated(nonsending): called from here, it runs on the main actor.
                do { try await operation.body(); outcome = .succeeded } catch { outcome = .failed(OperationRunner.describe(error)) }
            }
            let ready = outcome.isSuccess ? frontier.complete(index) : []
            initiator.recordFinished(index, outcome: outcome, at: initiator.clock.now, dependents: dependents, ready: ready)
        }
    }

    /// Runs the phase's operations as child tasks, at most `limit` at a time.
    private func runConcurrently(_ frontier: inout PhaseFrontier) async {
        let taskPriority: TaskPriority? = (phase == .low || phase == .idle) ? .background : nil
        let initiator = self.initiator
        let dependents = plan.dependentIndices
        // A child only runs its body and notes when it ended; this task records it (with the dependents it made
        // ready, under one lock), so children take no lock.
        await withTaskGroup(of: (Int, OperationOutcome, ContinuousClock.Instant).self) { group in
            var running = 0
            while true {
                while running < limit, let index = frontier.heap.pop() {
                    guard initiator.recordStarted(index) else { continue }
                    running += 1
                    let body = plan.operations[index].body
                    let timeout = plan.operations[index].timeout
                    group.addTask(priority: taskPriority) {
                        let outcome: OperationOutcome
                        if let timeout {
                            outcome = await OperationRunner.run(body, timeout: timeout, onMainActor: false, priority: taskPriority)
                        } else {
                            // Nonsending: the body runs on this child task, off the main actor, at its priority.
                            do { try await body(); outcome = .succeeded } catch {
                                outcome = .failed(OperationRunner.describe(error))
                            }
                        }
                        return (index, outcome, initiator.clock.now)
                    }
                }
                guard running > 0, let (index, outcome, finishedAt) = await group.next() else { break }
                running -= 1
                let ready = outcome.isSuccess ? frontier.complete(index) : []
                initiator.recordFinished(index, outcome: outcome, at: finishedAt, dependents: dependents, ready: ready)
            }
        }
    }

}

/// The ready operations of one phase (a min-heap of registration indices) and, for each member, how many of
/// its same-phase dependencies have not yet succeeded.
struct PhaseFrontier: Sendable {
    private let plan: StartupPlan
    private let phase: Initiator.Priority
    private var remaining: [Int]
    var heap: MinHeap
    /// The members with no same-phase dependency, in order.
    let initiallyReady: [Int]

    init(plan: StartupPlan, phase: Initiator.Priority, members: [Int]) {
        self.plan = plan
        self.phase = phase
        var remaining = [Int](repeating: 0, count: plan.operations.count)
        var ready: [Int] = []
        var heap = MinHeap(capacity: members.count)
        for index in members {
            let count = plan.dependencyIndices[index].reduce(0) { count, dependency in
                count + (plan.operations[dependency].priority == phase ? 1 : 0)
            }
            remaining[index] = count
            if count == 0 {
                ready.append(index)
                heap.push(index)
            }
        }
        self.remaining = remaining
        self.heap = heap
        self.initiallyReady = ready
    }

    /// Counts the operation at `index` succeeded; pushes and returns the same-phase dependents it made ready.
    mutating func complete(_ index: Int) -> [Int] {
        var newlyReady: [Int] = []
        for dependent in plan.dependentIndices[index] where plan.operations[dependent].priority == phase {
            remaining[dependent] -= 1
            if remaining[dependent] == 0 {
                newlyReady.append(dependent)
                heap.push(dependent)
            }
        }
        return newlyReady
    }
}
