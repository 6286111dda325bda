import Foundation
import LargeApp
import LargeAppHarness

// A large app: 1,000 generated module types (Sources/LargeApp, written by
// Sources/LargeAppGenerator, run when the benchmark builds), each with a small configuration, 0–2 requirements and three startup operations,
// in a 131 KiB manifest. Register → load eager modules → start() returning (ready), against JSONDecoder decoding
// the same file into Codable structs: warm (in this process) and on first use (one fresh `large-app-child` process
// per measurement, which links what an app does and none of the benchmark's peers). A ratio is the median of the
// repetitions' ratios (`pairedRatio`), each repetition's subject and baselines measured back to back.

/// The manifest of the first `count` generated modules.
func largeManifest(_ count: Int) -> URL {
    Locations.current().root.appendingPathComponent("Benchmarks/LargeApp/modules-\(count).json")
}

/// One warm measurement in this process.
private func warmHost(_ manifest: URL) async -> Double {
    do {
        return try await runLargeApp(manifest, linked: LinkedLargeModules.byName).milliseconds
    } catch {
        fatalError("the large app did not start: \(error)")
    }
}

/// One warm JSONDecoder measurement in this process.
private func warmDecode(_ manifest: URL) -> Double {
    do {
        let (elapsed, modules) = try decodeLargeManifest(manifest)
        blackHole(modules)
        return elapsed.milliseconds
    } catch {
        fatalError("JSONDecoder could not decode \(manifest.path): \(error)")
    }
}

/// The times, in milliseconds, of `runs` runs in one fresh process of `child` (`large-app-child` or
/// `shared-app-child`, see LargeAppHarness/ChildMain.swift): the first is first use, the others warm.
func childRuns(_ child: String, _ manifest: URL, _ mode: String, runs: Int = 1) -> [Double] {
    let text = runToCompletion(Locations.current().binDirectory.appendingPathComponent(child), [manifest.path, mode, String(runs)])
    let times = text.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard times.count == runs else { fatalError("\(child) \(mode) printed \(text)") }
    return times
}

/// One first-use measurement in a fresh `large-app-child` process, in milliseconds.
private func firstUse(_ manifest: URL, _ mode: String) -> Double {
    childRuns("large-app-child", manifest, mode)[0]
}

func largeAppBenchmarks(quick: Bool) async -> [Row] {
    let repetitions = quick ? 3 : 7
    let thousand = largeManifest(1000), threeHundred = largeManifest(300)
    // Warm: the same process, after two warm-ups.
    for _ in 0..<2 {
        _ = await warmHost(thousand)
        _ = warmDecode(thousand)
    }
    var warm: [Double] = [], warmDecodes: [Double] = []
    for _ in 0..<repetitions {
        warm.append(await warmHost(thousand))
        warmDecodes.append(warmDecode(thousand))
    }
    // First use: fresh processes, host, decoder and hand-wired twin paired.
    var first: [Double] = [], firstDecode: [Double] = [], first300: [Double] = []
    var wired: [Double] = [], wired300: [Double] = [], typed: [Double] = [], typed300: [Double] = []
    var runtime: [Double] = []
    for _ in 0..<repetitions {
        first.append(firstUse(thousand, "host"))
        runtime.append(firstUse(thousand, "runtime"))
        firstDecode.append(firstUse(thousand, "decode"))
        wired.append(firstUse(thousand, "wired"))
        first300.append(firstUse(threeHundred, "host"))
        wired300.append(firstUse(threeHundred, "wired"))
        typed.append(firstUse(thousand, "typed"))
        typed300.append(firstUse(threeHundred, "typed"))
    }
    let (warmHost, warmBase) = (Stats(samples: warm).median, Stats(samples: warmDecodes).median)
    let (firstHost, firstBase) = (Stats(samples: first).median, Stats(samples: firstDecode).median)
    let (firstHost300, firstWired, firstWired300) = (Stats(samples: first300).median, Stats(samples: wired).median,
                                                     Stats(samples: wired300).median)
    let (firstTyped, firstTyped300) = (Stats(samples: typed).median, Stats(samples: typed300).median)
    let perModule = pairedRatio(first.map { $0 / 1000 }, first300.map { $0 / 300 })
    func row(_ subject: String, _ baseline: String, _ ratio: Double, _ absolute: String, _ limit: Double) -> Row {
        Row(benchmark: "large app", subject: subject, baseline: baseline, ratio: ratio, absolute: absolute,
            target: "≤ \(limit)x", verdict: ratio <= limit ? .met : .missed)
    }
    return [
        row("register → ready, 1,000 modules, warm", "JSONDecoder, same file, warm", pairedRatio(warm, warmDecodes),
            "\(format(ms: warmHost)) vs \(format(ms: warmBase))", 5),
        row("register → ready, 1,000 modules, first use", "JSONDecoder, same file, fresh process", pairedRatio(first, firstDecode),
            "\(format(ms: firstHost)) vs \(format(ms: firstBase))", 10),
        row("register → ready, 1,000 modules, first use", "hand-wired twin, same file, fresh process", pairedRatio(first, wired),
            "\(format(ms: firstHost)) vs \(format(ms: firstWired))", 3),
        row("register → ready, 300 modules, first use", "hand-wired twin, same file, fresh process", pairedRatio(first300, wired300),
            "\(format(ms: firstHost300)) vs \(format(ms: firstWired300))", 3),
        row("register → ready, 1,000 modules, first use", "typed twin (each config in its own type), fresh process",
            pairedRatio(first, typed), "\(format(ms: firstHost)) vs \(format(ms: firstTyped))", 3),
        row("register → ready, 300 modules, first use", "typed twin (each config in its own type), fresh process",
            pairedRatio(first300, typed300), "\(format(ms: firstHost300)) vs \(format(ms: firstTyped300))", 3),
        Row(benchmark: "large app", subject: "register → ready, 1,000 modules, first use",
            baseline: "the same, every module type looked up in the Swift runtime (no generated list)",
            ratio: pairedRatio(first, runtime),
            absolute: "\(format(ms: firstHost)) vs \(format(ms: Stats(samples: runtime).median))", target: "context", verdict: .info),
        row("first use per module at 1,000", "first use per module at 300", perModule,
            String(format: "%.3f vs %.3f ms", firstHost / 1000, firstHost300 / 300), 1.2),
    ]
}
