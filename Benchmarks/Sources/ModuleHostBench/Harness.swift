import Foundation
import Synchronization

/// The clock every figure is read from.
let clock = ContinuousClock()

/// Keeps a value alive and opaque to the optimizer, so the work that produced it cannot be removed.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

extension Duration {
    /// The duration in nanoseconds, as a floating-point number.
    var nanoseconds: Double {
        Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }

    /// The duration in milliseconds, as a floating-point number.
    var milliseconds: Double { nanoseconds / 1e6 }
}

/// The median (and minimum, for the record) of one case's repetitions.
struct Stats {
    let samples: [Double]

    var median: Double {
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var minimum: Double { samples.min() ?? .nan }
    var maximum: Double { samples.max() ?? .nan }
}

/// The median of the ratios of paired samples, `subject[i] / baseline[i]`, each pair measured back to back.
///
/// This machine has fast and slow spells lasting seconds: the ratio of two medians can pair a subject's slow spell
/// with a baseline's fast one, while each pair's ratio is measured within one spell.
func pairedRatio(_ subject: [Double], _ baseline: [Double]) -> Double {
    Stats(samples: zip(subject, baseline).map { $0 / $1 }).median
}

/// One case of a micro-benchmark: `body(n)` must do the measured operation `n` times.
///
/// The loop lives inside the case's closure, so the operation is inlined into it and the harness's own
/// cost (one indirect call per batch) is spread over the whole batch.
struct MicroCase {
    let name: String
    let body: (Int) -> Void
}

/// Runs micro-benchmark cases interleaved: a warm-up batch of each, then `repetitions` rounds in which each
/// case runs one batch of `iterations`. Interleaving spreads machine noise (other processes, frequency
/// changes) evenly over the cases being compared. Returns nanoseconds per operation for each repetition.
func measureInterleaved(_ cases: [MicroCase], iterations: Int, repetitions: Int) -> [String: Stats] {
    for item in cases { item.body(max(1, iterations / 4)) }  // warm-up: caches, lazy initialisation, page faults
    var samples: [String: [Double]] = [:]
    for _ in 0..<repetitions {
        for item in cases {
            let start = clock.now
            item.body(iterations)
            let elapsed = clock.now - start
            samples[item.name, default: []].append(elapsed.nanoseconds / Double(iterations))
        }
    }
    return samples.mapValues(Stats.init)
}

/// Times `body` once per repetition (after `warmups` untimed runs); milliseconds per repetition.
func measureRepeated(warmups: Int, repetitions: Int, _ body: () -> Void) -> Stats {
    for _ in 0..<warmups { body() }
    var samples: [Double] = []
    for _ in 0..<repetitions {
        let start = clock.now
        body()
        samples.append((clock.now - start).milliseconds)
    }
    return Stats(samples: samples)
}

/// Runs `work(iterations)` on two threads released at the same instant; returns the wall time from the
/// release until both have finished.
///
/// Both threads first check in and then spin on a shared flag, so thread creation is not measured.
func runOnTwoThreads(iterations: Int, _ work: @escaping @Sendable (Int) -> Void) -> Duration {
    final class Rendezvous: Sendable {
        let ready = Atomic<Int>(0)
        let go = Atomic<Bool>(false)
        let finished = Mutex<[ContinuousClock.Instant]>([])
        let done = DispatchSemaphore(value: 0)
    }
    let rendezvous = Rendezvous()
    for _ in 0..<2 {
        let thread = Thread {
            rendezvous.ready.add(1, ordering: .acquiringAndReleasing)
            while !rendezvous.go.load(ordering: .acquiring) {}
            work(iterations)
            let end = clock.now
            rendezvous.finished.withLock { $0.append(end) }
            rendezvous.done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    while rendezvous.ready.load(ordering: .acquiring) < 2 { sched_yield() }
    let start = clock.now
    rendezvous.go.store(true, ordering: .releasing)
    rendezvous.done.wait()
    rendezvous.done.wait()
    let end = rendezvous.finished.withLock { $0.max() ?? start }
    return end - start
}

// MARK: Reporting

/// Whether a figure meets its target.
enum Verdict: String {
    case met, missed, info = "—"
}

/// One line of the results table.
struct Row {
    let benchmark: String
    let subject: String
    let baseline: String
    /// The ratio subject / baseline (for times), or subject throughput / baseline throughput.
    let ratio: Double
    /// Absolute figures, for the record (targets are judged on `ratio` unless the target says otherwise).
    let absolute: String
    let target: String
    let verdict: Verdict
}

func format(ratio: Double) -> String {
    if ratio >= 100 { return String(format: "%.0fx", ratio) }
    if ratio >= 10 { return String(format: "%.1fx", ratio) }
    return String(format: "%.2fx", ratio)
}

func format(ns: Double) -> String {
    if ns >= 1e6 { return String(format: "%.2f ms", ns / 1e6) }
    if ns >= 1e4 { return String(format: "%.1f µs", ns / 1e3) }
    return String(format: "%.1f ns", ns)
}

func format(ms: Double) -> String {
    String(format: "%.2f ms", ms)
}

/// Prints the rows as a Markdown table (ready to paste into docs/PERFORMANCE.md).
func printTable(_ rows: [Row]) {
    let header = ["benchmark", "subject", "baseline", "ratio", "absolute (median)", "target", "result"]
    let cells = rows.map {
        [$0.benchmark, $0.subject, $0.baseline, format(ratio: $0.ratio), $0.absolute, $0.target, $0.verdict.rawValue]
    }
    let widths = header.indices.map { column in
        ([header[column]] + cells.map { $0[column] }).map(\.count).max() ?? 0
    }
    func line(_ values: [String]) -> String {
        "| " + zip(values, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
    }
    print(line(header))
    print("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
    for row in cells { print(line(row)) }
}

/// Progress on standard error, so standard output holds only the report.
func progress(_ message: String) {
    FileHandle.standardError.write(Data("· \(message)\n".utf8))
}
