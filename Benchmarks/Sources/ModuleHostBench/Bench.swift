import Foundation

/// `modulehost-bench [--quick] [--only resolve,concurrent,planner,initiator,phases,manifest,large,shared,shell] [--no-build] [--static]`
///
/// Runs the benchmarks and prints a Markdown table in which every figure is a ratio against a baseline
/// measured in the same run. `--quick` uses fewer iterations (for trying changes; not for the record),
/// `--no-build` uses the root package's existing `.build/release/app-shell` instead of building it, and
/// `--static` also measures app-shell and the hellos built with `--static-swift-stdlib` (in `.build-static`).
@main
enum Bench {
    static let all = ["resolve", "concurrent", "planner", "initiator", "phases", "manifest", "large", "shared", "shell"]

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let quick = arguments.contains("--quick")
        let build = !arguments.contains("--no-build")
        let staticStdlib = arguments.contains("--static")
        var selected = all
        if let flag = arguments.firstIndex(of: "--only"), flag + 1 < arguments.count {
            selected = arguments[flag + 1].split(separator: ",").map(String.init)
        }
        if let unknown = selected.first(where: { !all.contains($0) }) ?? arguments.first(where: {
            $0.hasPrefix("-") && !["--quick", "--no-build", "--only", "--static"].contains($0)
        }) {
            FileHandle.standardError.write(Data("modulehost-bench: unknown benchmark or option '\(unknown)'\n".utf8))
            FileHandle.standardError.write(Data("usage: modulehost-bench [--quick] [--only \(all.joined(separator: ","))] [--no-build] [--static]\n".utf8))
            exit(64)
        }

        #if DEBUG
        progress("warning: this is a debug build; run with -c release for meaningful figures")
        #endif
        let began = clock.now
        var rows: [Row] = []
        for name in selected {
            progress(name)
            switch name {
            case "resolve": rows += resolveBenchmarks(quick: quick)
            case "concurrent": rows += concurrentResolveBenchmarks(quick: quick)
            case "planner": rows += await plannerBenchmarks(quick: quick)
            case "initiator": rows += await initiatorBenchmarks(quick: quick)
            case "phases": rows += await phaseBenchmarks(quick: quick)
            case "manifest": rows += manifestBenchmarks(quick: quick)
            case "large": rows += await largeAppBenchmarks(quick: quick)
            case "shared": rows += sharedConfigBenchmarks(quick: quick)
            case "shell":
                rows += shellBenchmarks(quick: quick, build: build, staticStdlib: false)
                if staticStdlib { rows += shellBenchmarks(quick: quick, build: true, staticStdlib: true) }
            default: break
            }
        }
        let elapsed = clock.now - began

        print("ModuleHost benchmarks — \(machineSummary())\(quick ? " — QUICK RUN (not for the record)" : "")")
        print("")
        printTable(rows)
        print("")
        let missed = rows.filter { $0.verdict == .missed }.count
        let met = rows.filter { $0.verdict == .met }.count
        print("Targets: \(met) met, \(missed) missed. Ratios are subject / baseline for times and speed-ups as")
        print("baseline / subject (Swinject) or subject / baseline throughput (concurrent); medians of repetitions")
        print("(of the paired repetitions' ratios for the large-app and shared-configuration rows).")
        print(String(format: "Benchmark time: %.1f s", elapsed.milliseconds / 1000))
    }

    /// Processors, CPU model and memory, as the run saw them.
    static func machineSummary() -> String {
        let info = ProcessInfo.processInfo
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown CPU"
        let memory = Double(info.physicalMemory) / Double(1 << 30)
        return String(format: "%d active processors, %@, %.0f GiB", info.activeProcessorCount, model, memory)
    }
}
