import Foundation
import ModuleHost

// A large app, as issue 16 describes it: 1,000 generated module types (Sources/LargeApp, written by
// Scripts/generate-large-app.py), each with a small configuration, 0–2 requirements and three startup operations,
// in a 131 KiB manifest. Register → load eager modules → start() returning (ready), against JSONDecoder decoding
// the same file into Codable structs: warm (in this process) and on first use (one child process per measurement).

/// The manifest's shape, for the JSONDecoder baseline.
struct LargeManifest: Decodable {
    struct Entry: Decodable {
        struct Config: Decodable {
            let size: Int
            let label: String
            let enabled: Bool
        }

        let type: String
        let config: Config?
    }

    let version: Int
    let modules: [Entry]
}

/// The manifest of the first `count` generated modules.
func largeManifest(_ count: Int) -> URL {
    Locations.current().root.appendingPathComponent("Benchmarks/LargeApp/modules-\(count).json")
}

/// Registers the manifest, loads the eager modules and starts: the time until start() returns (ready). The later
/// phases are drained afterwards, untimed, so the next measurement starts from a quiet process.
func runLargeApp(_ manifest: URL) async -> Duration {
    let begin = clock.now
    let manager = ModuleManager()
    do {
        try manager.registerModules(withConfigFilePath: manifest)
        manager.loadEagerModules()
        try await manager.initiator.start()
    } catch {
        fatalError("the large app did not start: \(error)")
    }
    let elapsed = clock.now - begin
    manager.initiator.hostDidBecomeIdle()
    _ = await manager.initiator.waitUntilFinished()
    return elapsed
}

/// Decodes the manifest with JSONDecoder, reading the file as the host does.
func decodeLargeManifest(_ manifest: URL) -> Duration {
    let begin = clock.now
    do {
        let data = try Data(contentsOf: manifest)
        blackHole(try JSONDecoder().decode(LargeManifest.self, from: data))
    } catch {
        fatalError("JSONDecoder could not decode \(manifest.path): \(error)")
    }
    return clock.now - begin
}

/// `--child-large <manifest> host|decode [runs]`: a first-use measurement in this fresh process, then `runs - 1`
/// warm ones (for a profiler: `perf record … modulehost-bench --child-large <manifest> host 200`); prints the
/// milliseconds of each.
func runLargeChild(_ arguments: [String]) async -> Never {
    guard (2...3).contains(arguments.count), let runs = Int(arguments.count == 3 ? arguments[2] : "1"), runs > 0 else {
        fatalError("usage: modulehost-bench --child-large <manifest> host|decode [runs]")
    }
    let manifest = URL(fileURLWithPath: arguments[0])
    for _ in 0..<runs {
        let elapsed = arguments[1] == "host" ? await runLargeApp(manifest) : decodeLargeManifest(manifest)
        print(elapsed.milliseconds)
    }
    exit(0)
}

/// One first-use measurement in a child process, in milliseconds.
private func firstUse(_ manifest: URL, _ mode: String) -> Double {
    let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    let text = runToCompletion(executable, ["--child-large", manifest.path, mode])
    guard let milliseconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        fatalError("the \(mode) child printed \(text)")
    }
    return milliseconds
}

func largeAppBenchmarks(quick: Bool) async -> [Row] {
    let repetitions = quick ? 3 : 7
    let thousand = largeManifest(1000), threeHundred = largeManifest(300)
    // Warm: the same process, after two warm-ups.
    for _ in 0..<2 {
        _ = await runLargeApp(thousand)
        _ = decodeLargeManifest(thousand)
    }
    var warm: [Double] = [], warmDecode: [Double] = []
    for _ in 0..<repetitions {
        warm.append(await runLargeApp(thousand).milliseconds)
        warmDecode.append(decodeLargeManifest(thousand).milliseconds)
    }
    // First use: fresh processes, host and decoder paired.
    var first: [Double] = [], firstDecode: [Double] = [], first300: [Double] = []
    for _ in 0..<repetitions {
        first.append(firstUse(thousand, "host"))
        firstDecode.append(firstUse(thousand, "decode"))
        first300.append(firstUse(threeHundred, "host"))
    }
    let (warmHost, warmBase) = (Stats(samples: warm).median, Stats(samples: warmDecode).median)
    let (firstHost, firstBase) = (Stats(samples: first).median, Stats(samples: firstDecode).median)
    let perModule = (firstHost / 1000) / (Stats(samples: first300).median / 300)
    func row(_ subject: String, _ baseline: String, _ ratio: Double, _ absolute: String, _ limit: Double) -> Row {
        Row(benchmark: "large app", subject: subject, baseline: baseline, ratio: ratio, absolute: absolute,
            target: "≤ \(limit)x", verdict: ratio <= limit ? .met : .missed)
    }
    return [
        row("register → ready, 1,000 modules, warm", "JSONDecoder, same file, warm", warmHost / warmBase,
            "\(format(ms: warmHost)) vs \(format(ms: warmBase))", 5),
        row("register → ready, 1,000 modules, first use", "JSONDecoder, same file, fresh process", firstHost / firstBase,
            "\(format(ms: firstHost)) vs \(format(ms: firstBase))", 10),
        row("first use per module at 1,000", "first use per module at 300", perModule,
            String(format: "%.3f vs %.3f ms", firstHost / 1000, Stats(samples: first300).median / 300), 1.2),
    ]
}
