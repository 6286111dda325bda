/// Runs one phase: starts each operation as soon as its same-phase dependencies have succeeded, at most
/// `limit` at a time, always picking the earliest-registered ready operation (a min-heap of registration
/// indices). With `limit == 1` (the `.high` phase) this is the deterministic serial order.
struct PhaseScheduler {
    let initiator: Initiator
    let plan: StartupPlan
    let phase: Initiator.Priority
    let limit: Int

    /// Runs the phase until every operation in it has settled (or startup was cancelled).
    func run() async {
        let members = initiator.pendingOperations(in: phase)
        guard !members.isEmpty else { return }
        let counts = samePhaseDependencyCounts(of: members)
        var remaining = counts.remaining
        var heap = MinHeap(capacity: members.count)
        for index in counts.ready { heap.push(index) }
        initiator.recordReady(counts.ready)

        let onMainActor = phase == .high
        let taskPriority: TaskPriority? = (phase == .low || phase == .idle) ? .background : nil
        let initiator = self.initiator
        let dependents = plan.dependentIndices

        await withTaskGroup(of: (Int, OperationOutcome).self) { group in
            var running = 0
            while true {
                while running < limit, let index = heap.pop() {
                    guard initiator.recordStarted(index) else { continue }
                    running += 1
                    let operation = plan.operations[index]
                    group.addTask {
                        let outcome = await OperationRunner.run(
                            operation.body, timeout: operation.timeout, onMainActor: onMainActor, priority: taskPriority)
                        initiator.recordFinished(index, outcome: outcome, dependents: dependents)
                        return (index, outcome)
                    }
                }
                guard running > 0, let (index, outcome) = await group.next() else { break }
                running -= 1
                guard outcome.isSuccess else { continue }
                var newlyReady: [Int] = []
                for dependent in dependents[index] where plan.operations[dependent].priority == phase {
                    remaining[dependent] -= 1
                    if remaining[dependent] == 0 { newlyReady.append(dependent) }
                }
                if !newlyReady.isEmpty {
                    initiator.recordReady(newlyReady)
                    for dependent in newlyReady { heap.push(dependent) }
                }
            }
        }
    }

    /// For each member, how many of its dependencies run in this phase (by registration index), and the
    /// members that have none, in order.
    private func samePhaseDependencyCounts(of members: [Int]) -> (remaining: [Int], ready: [Int]) {
        var remaining = [Int](repeating: 0, count: plan.operations.count)
        var ready: [Int] = []
        for index in members {
            let count = plan.dependencyIndices[index].reduce(0) { count, dependency in
                count + (plan.operations[dependency].priority == phase ? 1 : 0)
            }
            remaining[index] = count
            if count == 0 { ready.append(index) }
        }
        return (remaining, ready)
    }
}
