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

/// `count` no-op operations in one phase, shaped like `RandomDAG` with 3 dependencies each.
func makeOperations(count: Int, seed: UInt64) -> [StartupOperation] {
    let dag = RandomDAG(count: count, maximumDependencies: 3, seed: seed)
    let body: Initiator.Operation = {}
    return (0..<count).map { index in
        StartupOperation("op.\(index)", priority: .asyncHigh,
                         dependencies: dag.dependencies[index].map { "op.\($0)" }, body: body)
    }
}

/// The reference planner: the least any planner must do with these operations — index the identifiers,
/// resolve each dependency to an index, and order with Kahn's algorithm (FIFO). No error reporting, no
/// duplicate-dependency handling, no phases, no deterministic tie-break.
@inline(never)
func referencePlan(_ operations: [StartupOperation]) -> [Int] {
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

func plannerBenchmarks(quick: Bool) -> [Row] {
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
            blackHole(try! StartupPlan(operations: operations))
            blackHole(referencePlan(operations))
        }
        for _ in 0..<repetitions {
            var start = clock.now
            let plan = try! StartupPlan(operations: operations)
            subject.append((clock.now - start).milliseconds)
            blackHole(plan)
            start = clock.now
            let order = referencePlan(operations)
            reference.append((clock.now - start).milliseconds)
            blackHole(order)
        }
        let planMedian = Stats(samples: subject).median
        let referenceMedian = Stats(samples: reference).median
        medians[count] = planMedian
        let isTen = count == 10_000
        rows.append(Row(
            benchmark: "planner", subject: "StartupPlan(operations:) \(count / 1000)k ops, ≤3 deps",
            baseline: "reference index + Kahn, same ops", ratio: planMedian / referenceMedian,
            absolute: "\(format(ms: planMedian)) vs \(format(ms: referenceMedian))",
            target: isTen ? "≤ 10 ms absolute" : "context",
            verdict: isTen ? (planMedian <= 10 ? .met : .missed) : .info))
    }
    if let ten = medians[10_000], let hundred = medians[100_000] {
        let ratio = hundred / ten
        rows.append(Row(
            benchmark: "planner", subject: "StartupPlan 100k ops", baseline: "StartupPlan 10k ops (same run)",
            ratio: ratio, absolute: "\(format(ms: hundred)) vs \(format(ms: ten))",
            target: "≤ 12x", verdict: ratio <= 12 ? .met : .missed))
    }
    return rows
}
