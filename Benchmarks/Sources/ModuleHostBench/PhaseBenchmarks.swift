import SeededRandom
import ModuleHost

/// Sleeping operations and the ideal times to compare a run of them with.
struct SleepGraph {
    let sleeps: [Int]           // milliseconds
    let dependencies: [[Int]]

    /// The sum of sleeps along the longest dependency chain: no scheduler, however wide, can beat it.
    var criticalPath: Int {
        var finish = [Int](repeating: 0, count: sleeps.count)
        for index in sleeps.indices {  // dependencies always point to earlier nodes
            finish[index] = sleeps[index] + (dependencies[index].map { finish[$0] }.max() ?? 0)
        }
        return finish.max() ?? 0
    }

    /// The makespan of an overhead-free scheduler with the Initiator's policy: at most `width` at a time,
    /// always starting the earliest-registered ready operation. With a width limit this can exceed the
    /// critical path, so it tells scheduling policy apart from overhead.
    func listSchedule(width: Int) -> Int {
        let count = sleeps.count
        var remaining = dependencies.map(\.count)
        var dependents = [[Int]](repeating: [], count: count)
        for (index, deps) in dependencies.enumerated() { for dep in deps { dependents[dep].append(index) } }
        var ready = Set((0..<count).filter { remaining[$0] == 0 })
        var running: [(end: Int, index: Int)] = []
        var now = 0
        var done = 0
        while done < count {
            while running.count < width, let next = ready.min() {
                ready.remove(next)
                running.append((now + sleeps[next], next))
            }
            running.sort { ($0.end, $0.index) < ($1.end, $1.index) }
            let first = running.removeFirst()
            now = first.end
            done += 1
            for dependent in dependents[first.index] {
                remaining[dependent] -= 1
                if remaining[dependent] == 0 { ready.insert(dependent) }
            }
        }
        return now
    }
}

/// Runs `graph` as one `.asyncHigh` phase of a fresh Initiator of `width`; the wall time of `start()`.
func runPhase(_ graph: SleepGraph, width: Int) async -> Duration {
    let initiator = Initiator(maxConcurrentOperations: width)
    for index in graph.sleeps.indices {
        let sleep = graph.sleeps[index]
        try! initiator.add(
            "sleep.\(index)", priority: .asyncHigh, dependencies: graph.dependencies[index].map { "sleep.\($0)" }
        ) {
            try await Task.sleep(for: .milliseconds(sleep))
        }
    }
    let start = clock.now
    do {
        try await initiator.start()
    } catch {
        fatalError("the phase benchmark's startup failed: \(error)")
    }
    let elapsed = clock.now - start
    _ = await initiator.drain()  // release the later (empty) phases so the driver task ends
    return elapsed
}

func phaseBenchmarks(quick: Bool) async -> [Row] {
    let width = 8
    let repetitions = quick ? 3 : 7

    // 64 independent 20 ms sleeps at width 8: 8 waves, ideally 160 ms.
    let flat = SleepGraph(sleeps: [Int](repeating: 20, count: 64), dependencies: [[Int]](repeating: [], count: 64))
    _ = await runPhase(flat, width: width)  // warm-up: the cooperative pool's threads
    var flatSamples: [Double] = []
    for _ in 0..<repetitions { flatSamples.append(await runPhase(flat, width: width).milliseconds) }
    let flatMedian = Stats(samples: flatSamples).median
    let ideal = 64 * 20 / width

    // A random DAG of 64 sleeps (5 to 30 ms), each depending on up to 3 earlier ones.
    var generator = SplitMix64(seed: 0xDA6)
    let dag = RandomDAG(count: 64, maximumDependencies: 3, seed: 0xDA6_0001)
    let sleeps = (0..<64).map { _ in Int.random(in: 5...30, using: &generator) }
    // Sparser than the planner's graph (a dependency only with probability 1/2), so there is parallelism to find.
    let deps = dag.dependencies.map { list in list.filter { _ in Bool.random(using: &generator) } }
    let graph = SleepGraph(sleeps: sleeps, dependencies: deps)
    var dagSamples: [Double] = []
    for _ in 0..<repetitions { dagSamples.append(await runPhase(graph, width: width).milliseconds) }
    let dagMedian = Stats(samples: dagSamples).median
    let critical = graph.criticalPath
    let listed = graph.listSchedule(width: width)

    return [
        Row(benchmark: "phases (width 8)", subject: "64 × 20 ms sleeps, one .asyncHigh phase",
            baseline: "ideal \(ideal) ms (64 × 20 ms / 8)", ratio: flatMedian / Double(ideal),
            absolute: "\(format(ms: flatMedian)) vs \(ideal) ms", target: "≤ 1.15x",
            verdict: flatMedian / Double(ideal) <= 1.15 ? .met : .missed),
        Row(benchmark: "phases (width 8)", subject: "random DAG, 64 sleeps of 5–30 ms",
            baseline: "critical path \(critical) ms", ratio: dagMedian / Double(critical),
            absolute: "\(format(ms: dagMedian)) vs \(critical) ms", target: "no target", verdict: .info),
        Row(benchmark: "phases (width 8)", subject: "random DAG, 64 sleeps of 5–30 ms",
            baseline: "overhead-free list schedule \(listed) ms", ratio: dagMedian / Double(listed),
            absolute: "\(format(ms: dagMedian)) vs \(listed) ms", target: "no target", verdict: .info),
    ]
}
