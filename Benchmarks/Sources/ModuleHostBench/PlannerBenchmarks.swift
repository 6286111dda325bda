import SeededRandom
import ModuleHost

/// A random DAG: node `i` depends on up to `maximumDependencies` distinct earlier nodes.
struct RandomDAG {
    let dependencies: [[Int]]

    init(count: Int, maximumDependencies: Int, seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var dependencies: [[Int]] = []
        dependencies.reserveCapacity(count)
        for index in 0..<count {
            var chosen: [Int] = []
            let wanted = min(maximumDependencies, index)
            while chosen.count < wanted {
                let candidate = Int.random(in: 0..<index, using: &generator)
                if !chosen.contains(candidate) { chosen.append(candidate) }
            }
            dependencies.append(chosen)
        }
        self.dependencies = dependencies
    }

    var count: Int { dependencies.count }
}

/// One planned operation: its identifier and the identifiers it depends on.
struct PlannedOperation {
    let identifier: String
    let dependencies: [String]
}

/// `count` no-op operations in one phase, shaped like `RandomDAG` with 3 dependencies each.
func makeOperations(count: Int, seed: UInt64) -> [PlannedOperation] {
    let dag = RandomDAG(count: count, maximumDependencies: 3, seed: seed)
    return (0..<count).map { index in
        PlannedOperation(identifier: "op.\(index)", dependencies: dag.dependencies[index].map { "op.\($0)" })
    }
}

/// A fresh initiator holding `operations` as no-op `.idle` operations. `start()` plans every phase but runs only
/// the blocking ones (`.high`, `.asyncHigh`), which are empty here, so it times planning, not running.
func makeIdleInitiator(_ operations: [PlannedOperation]) -> Initiator {
    let initiator = Initiator(maxConcurrentOperations: 1)
    let body: StartupOperationBody = {}
    for operation in operations {
        try! initiator.add(operation.identifier, priority: .idle, dependencies: operation.dependencies,
                           operation: body)
    }
    return initiator
}

/// Plans `initiator`'s operations with `start()` and returns its wall time; then cancels the idle phase, untimed.
func timeStart(_ initiator: Initiator) async -> Duration {
    let start = clock.now
    let report: StartupReport
    do {
        report = try await initiator.start()
    } catch {
        fatalError("the planner benchmark's startup failed: \(error)")
    }
    let elapsed = clock.now - start
    blackHole(report)
    initiator.cancel()
    _ = await initiator.waitUntilFinished()
    return elapsed
}

/// The reference planner: the least any planner must do with these operations — index the identifiers,
/// resolve each dependency to an index, and order with Kahn's algorithm (FIFO). No error reporting, no
/// duplicate-dependency handling, no phases, no deterministic tie-break.
@inline(never)
func referencePlan(_ operations: [PlannedOperation]) -> [Int] {
    var index: [String: Int] = [:]
    index.reserveCapacity(operations.count)
    for (position, operation) in operations.enumerated() { index[operation.identifier] = position }
    var dependents = [[Int]](repeating: [], count: operations.count)
    var remaining = [Int](repeating: 0, count: operations.count)
    for (position, operation) in operations.enumerated() {
        for dependency in operation.dependencies {
            guard let target = index[dependency] else { fatalError("unknown dependency \(dependency)") }
            dependents[target].append(position)
            remaining[position] += 1
        }
    }
    var order: [Int] = []
    order.reserveCapacity(operations.count)
    for position in operations.indices where remaining[position] == 0 { order.append(position) }
    var head = 0
    while head < order.count {
        let node = order[head]
        head += 1
        for dependent in dependents[node] {
            remaining[dependent] -= 1
            if remaining[dependent] == 0 { order.append(dependent) }
        }
    }
    precondition(order.count == operations.count, "the reference planner found a cycle")
    return order
}

func plannerBenchmarks(quick: Bool) async -> [Row] {
    var rows: [Row] = []
    var medians: [Int: Double] = [:]
    for count in [1_000, 10_000, 100_000] {
        progress("planner: \(count) operations")
        let operations = makeOperations(count: count, seed: 0x5EED_0000 + UInt64(count))
        let repetitions = quick ? 3 : (count >= 100_000 ? 7 : 15)
        // Interleave subject and reference repetitions, as the micro-benchmarks do.
        var subject: [Double] = []
        var reference: [Double] = []
        for _ in 0..<2 {  // warm-up
            blackHole(await timeStart(makeIdleInitiator(operations)))
            blackHole(referencePlan(operations))
        }
        for _ in 0..<repetitions {
            // Adding the operations is not timed, as building them was not before.
            let initiator = makeIdleInitiator(operations)
            subject.append(await timeStart(initiator).milliseconds)
            let start = clock.now
            let order = referencePlan(operations)
            reference.append((clock.now - start).milliseconds)
            blackHole(order)
        }
        let planMedian = Stats(samples: subject).median
        let referenceMedian = Stats(samples: reference).median
        medians[count] = planMedian
        // The target "100k at most 12x the 10k time" is retired: the reference itself scales 25x between those
        // sizes on this machine's caches. The goal is the reference's own time at every size.
        let ratio = planMedian / referenceMedian
        rows.append(Row(
            benchmark: "planner", subject: "Initiator.start() planning \(count / 1000)k .idle ops, ≤3 deps",
            baseline: "reference index + Kahn, same ops", ratio: ratio,
            absolute: "\(format(ms: planMedian)) vs \(format(ms: referenceMedian))",
            target: "≤ 1.0x", verdict: ratio <= 1.0 ? .met : .missed))
    }
    if let ten = medians[10_000], let hundred = medians[100_000] {
        rows.append(Row(
            benchmark: "planner", subject: "Initiator.start() 100k .idle ops",
            baseline: "Initiator.start() 10k .idle ops (same run)",
            ratio: hundred / ten, absolute: "\(format(ms: hundred)) vs \(format(ms: ten))",
            target: "context (was ≤ 12x, retired)", verdict: .info))
    }
    return rows
}
