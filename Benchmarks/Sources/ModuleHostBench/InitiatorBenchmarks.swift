import SeededRandom
import ModuleHost

/// A seeded random DAG of no-op operations spread over `.high`, `.asyncHigh` and `.low`: operation `i` depends
/// on 0–3 distinct earlier operations, chosen among those whose phase is not later than its own.
///
/// The operations' names (`op.<i>`) and their dependencies' names are made here, outside the timed region, and
/// given to both sides: the Initiator is added these strings, the reference indexes the same strings and
/// resolves the same dependency names through its dictionary.
struct PhasedDAG {
    /// Phase of each operation: 0 `.high`, 1 `.asyncHigh`, 2 `.low`.
    let phases: [Int]
    let dependencies: [[Int]]
    /// The name of each operation.
    let names: [String]
    /// The names of each operation's dependencies.
    let dependencyNames: [[String]]

    init(count: Int, seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var phases: [Int] = []
        var dependencies: [[Int]] = []
        phases.reserveCapacity(count)
        dependencies.reserveCapacity(count)
        for index in 0..<count {
            let phase = Int.random(in: 0...2, using: &generator)
            let wanted = Int.random(in: 0...3, using: &generator)
            var chosen: [Int] = []
            var attempts = 0
            while chosen.count < min(wanted, index), attempts < 12 {
                attempts += 1
                let candidate = Int.random(in: 0..<index, using: &generator)
                if phases[candidate] <= phase, !chosen.contains(candidate) { chosen.append(candidate) }
            }
            phases.append(phase)
            dependencies.append(chosen)
        }
        self.phases = phases
        self.dependencies = dependencies
        names = (0..<count).map { "op.\($0)" }
        dependencyNames = dependencies.map { $0.map { "op.\($0)" } }
    }

    var count: Int { phases.count }

    static let priorities: [ModuleStartupOperation.Priority] = [.high, .asyncHigh, .low]
}

/// Adds every operation of `dag` to a fresh Initiator, runs `start()`, signals ready and idle and waits until
/// the `.low` phase has finished: the wall time of all of it.
func runInitiator(_ dag: PhasedDAG, width: Int) async -> Duration {
    let begin = clock.now
    let initiator = Initiator(maxConcurrentOperations: width)
    let body: StartupOperationBody = {}
    for index in 0..<dag.count {
        try! initiator.add(dag.names[index], priority: PhasedDAG.priorities[dag.phases[index]],
                           dependencies: dag.dependencyNames[index], operation: body)
    }
    do {
        try await initiator.start()
    } catch {
        fatalError("the initiator benchmark's startup failed: \(error)")
    }
    initiator.hostDidBecomeIdle()  // ready, then idle: releases .low and the (empty) .idle phase
    let report = await initiator.waitUntilFinished()
    let elapsed = clock.now - begin
    precondition(report.isSuccessful && report.isComplete, "the initiator benchmark's startup did not finish")
    return elapsed
}

/// The least a host must do to run the same DAG: index the names and resolve each dependency's name through
/// that index (the Initiator is given names, so the reference works from the same ones); per phase, Kahn's
/// ordering; `.high` inline in one main-actor turn, the other phases in a task group at the same width, `.low`
/// as child tasks at background priority. No records, events or report.
func runReference(_ dag: PhasedDAG, width: Int) async -> Duration {
    let begin = clock.now
    var index: [String: Int] = [:]
    index.reserveCapacity(dag.count)
    for position in 0..<dag.count { index[dag.names[position]] = position }
    var graph = ReferenceGraph(dag: dag, index: index)
    graph = await runSerialPhase(graph)
    for phase in 1...2 {
        graph = await runConcurrentPhase(graph, phase: phase, width: width)
    }
    return clock.now - begin
}

/// Dependents and same-phase dependency counts of a `PhasedDAG`, its dependencies resolved by name.
struct ReferenceGraph: Sendable {
    let phases: [Int]
    var dependents: [[Int]]
    var remaining: [Int]

    init(dag: PhasedDAG, index: [String: Int]) {
        phases = dag.phases
        dependents = [[Int]](repeating: [], count: dag.count)
        remaining = [Int](repeating: 0, count: dag.count)
        for operation in 0..<dag.count {
            for name in dag.dependencyNames[operation] {
                guard let dependency = index[name] else { fatalError("unknown dependency \(name)") }
                dependents[dependency].append(operation)
                if dag.phases[dependency] == dag.phases[operation] { remaining[operation] += 1 }
            }
        }
    }

    func ready(in phase: Int) -> [Int] {
        phases.indices.filter { phases[$0] == phase && remaining[$0] == 0 }
    }

    /// Counts `finished` done; appends the dependents it made ready to `ready`.
    mutating func complete(_ finished: Int, phase: Int, ready: inout [Int]) {
        for dependent in dependents[finished] where phases[dependent] == phase {
            remaining[dependent] -= 1
            if remaining[dependent] == 0 { ready.append(dependent) }
        }
    }
}

let referenceBody: StartupOperationBody = {}

@MainActor
func runSerialPhase(_ graph: ReferenceGraph) async -> ReferenceGraph {
    var graph = graph
    var ready = graph.ready(in: 0)
    while let next = ready.popLast() {
        try? await referenceBody()
        graph.complete(next, phase: 0, ready: &ready)
    }
    return graph
}

func runConcurrentPhase(_ graph: ReferenceGraph, phase: Int, width: Int) async -> ReferenceGraph {
    var graph = graph
    var ready = graph.ready(in: phase)
    let priority: TaskPriority? = phase == 2 ? .background : nil
    await withTaskGroup(of: Int.self) { group in
        var running = 0
        while true {
            while running < width, let next = ready.popLast() {
                running += 1
                group.addTask(priority: priority) {
                    try? await referenceBody()
                    return next
                }
            }
            guard running > 0, let finished = await group.next() else { break }
            running -= 1
            graph.complete(finished, phase: phase, ready: &ready)
        }
    }
    return graph
}

func initiatorBenchmarks(quick: Bool) async -> [Row] {
    let width = 2
    // About the same wall time per size: a 1k run lasts a millisecond or two, where one scheduler stall on a busy
    // machine moves a median of few runs.
    func repetitions(_ count: Int) -> Int { quick ? 3 : (count < 10_000 ? 41 : 7) }
    var rows: [Row] = []
    for count in [1_000, 10_000] {
        let dag = PhasedDAG(count: count, seed: 0x16_16 + UInt64(count))
        _ = await runInitiator(dag, width: width)  // warm-up
        _ = await runReference(dag, width: width)
        var subject: [Double] = []
        var reference: [Double] = []
        for _ in 0..<repetitions(count) {  // interleaved, so drift moves both
            subject.append(await runInitiator(dag, width: width).milliseconds)
            reference.append(await runReference(dag, width: width).milliseconds)
        }
        let subjectMedian = Stats(samples: subject).median
        let referenceMedian = Stats(samples: reference).median
        let ratio = subjectMedian / referenceMedian
        rows.append(Row(
            benchmark: "initiator",
            subject: "add → start() → finished, \(count / 1000)k no-ops over .high/.asyncHigh/.low, ≤3 deps",
            baseline: "bare task group, same DAG and width", ratio: ratio,
            absolute: "\(format(ms: subjectMedian)) vs \(format(ms: referenceMedian))",
            target: "≤ 1.5x", verdict: ratio <= 1.5 ? .met : .missed))
    }
    return rows
}
