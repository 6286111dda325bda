import Foundation

/// Where things are: the root package (the product) and this package's build products.
struct Locations {
    /// The root package: `MODULEHOST_ROOT`, or the directory above `Benchmarks/` (found from this file's path).
    let root: URL
    /// The directory `swift run` launched this benchmark from; `hello` is built next to it.
    let binDirectory: URL

    static func current() -> Locations {
        let root: URL
        if let override = ProcessInfo.processInfo.environment["MODULEHOST_ROOT"] {
            root = URL(fileURLWithPath: override)
        } else {
            root = URL(fileURLWithPath: #filePath)  // Benchmarks/Sources/ModuleHostBench/ShellBenchmarks.swift
                .deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
        }
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return Locations(root: root.standardizedFileURL, binDirectory: executable.deletingLastPathComponent())
    }
}

/// Runs a command to completion; its standard output, or a fatal error naming it.
@discardableResult
func runToCompletion(_ executable: URL, _ arguments: [String], in directory: URL? = nil,
                     output: Bool = true) -> String {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let pipe = Pipe()
    process.standardOutput = output ? pipe : FileHandle.nullDevice
    process.standardError = FileHandle.standardError
    do { try process.run() } catch { fatalError("cannot run \(executable.path): \(error)") }
    let data = output ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        fatalError("\(executable.path) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
}

/// Builds `products` of the package at `package` in release mode (a no-op when up to date); returns the bin directory.
/// `extra` adds build options, such as a scratch path and `--static-swift-stdlib`.
func buildRelease(_ products: [String], package: URL, extra: [String] = []) -> URL {
    let swift = URL(fileURLWithPath: "/usr/bin/env")
    let common = ["swift", "build", "-c", "release", "--package-path", package.path] + extra
    for product in products {
        progress("shell: \((common + ["--product", product]).dropFirst().joined(separator: " "))")
        runToCompletion(swift, common + ["--product", product], output: false)
    }
    let bin = runToCompletion(swift, common + ["--show-bin-path"]).trimmingCharacters(in: .whitespacesAndNewlines)
    return URL(fileURLWithPath: bin)
}

/// One run of a program: start-to-exit wall time and peak resident memory.
struct Launch {
    let milliseconds: Double
    /// Peak resident set size, in KiB, measured by `peak-memory` (see its main.swift).
    let peakKiB: Double
}

/// Runs `executable` twice in the current directory, output discarded: once timed, once under `peak-memory`.
func launch(_ executable: URL, _ arguments: [String], peakMemory: URL) -> Launch {
    let milliseconds = launchTime(executable, arguments)
    let text = runToCompletion(peakMemory, [executable.path] + arguments)
    guard let kib = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        fatalError("peak-memory printed \(text) for \(executable.path)")
    }
    return Launch(milliseconds: milliseconds, peakKiB: kib)
}

/// Start-to-exit wall time of one run in the current directory, output discarded, in milliseconds.
///
/// Uses `posix_spawn` and `waitpid` directly: Foundation's `Process.waitUntilExit` polls its run loop on
/// Linux (every 50 ms when nothing else wakes it), which would swamp a few-millisecond start-up.
func launchTime(_ executable: URL, _ arguments: [String]) -> Double {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable.path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let start = clock.now
    let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
    guard spawned == 0 else { fatalError("cannot run \(executable.path): error \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let elapsed = clock.now - start
    guard status == 0 else {
        fatalError("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed with wait status \(status)")
    }
    return elapsed.milliseconds
}

/// `staticStdlib`: build app-shell and both hellos with `--static-swift-stdlib` in separate scratch
/// directories (`.build-static`) and measure those instead, to show what static linking would change.
func shellBenchmarks(quick: Bool, build: Bool, staticStdlib: Bool) -> [Row] {
    let locations = Locations.current()
    let appShell: URL, hello: URL, helloFoundation: URL, helloEssentials: URL, helloManifest: URL
    if staticStdlib {
        let options = ["--static-swift-stdlib", "--scratch-path"]
        let root = locations.root
        let bench = root.appendingPathComponent("Benchmarks")
        appShell = buildRelease(["app-shell"], package: root,
                                extra: options + [root.appendingPathComponent(".build-static").path])
            .appendingPathComponent("app-shell")
        let helloBin = buildRelease(["hello", "hello-foundation", "hello-essentials", "hello-manifest"], package: bench,
                                    extra: options + [bench.appendingPathComponent(".build-static").path])
        hello = helloBin.appendingPathComponent("hello")
        helloFoundation = helloBin.appendingPathComponent("hello-foundation")
        helloEssentials = helloBin.appendingPathComponent("hello-essentials")
        helloManifest = helloBin.appendingPathComponent("hello-manifest")
    } else {
        appShell = build
            ? buildRelease(["app-shell"], package: locations.root).appendingPathComponent("app-shell")
            : locations.root.appendingPathComponent(".build/release/app-shell")
        hello = locations.binDirectory.appendingPathComponent("hello")
        helloFoundation = locations.binDirectory.appendingPathComponent("hello-foundation")
        helloEssentials = locations.binDirectory.appendingPathComponent("hello-essentials")
        helloManifest = locations.binDirectory.appendingPathComponent("hello-manifest")
    }
    for executable in [appShell, hello, helloFoundation, helloEssentials, helloManifest] where !FileManager.default.isExecutableFile(atPath: executable.path) {
        fatalError("\(executable.path) is missing; build it in release mode first (see Benchmarks/README.md)")
    }

    // app-shell runs in a scratch directory holding a copy of the root modules.json (its state goes there too).
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("modulehost-bench-\(getpid())")
    do {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: locations.root.appendingPathComponent("modules.json"),
                                         to: scratch.appendingPathComponent("modules.json"))
    } catch {
        fatalError("cannot prepare \(scratch.path): \(error)")
    }
    let previousDirectory = FileManager.default.currentDirectoryPath
    guard FileManager.default.changeCurrentDirectoryPath(scratch.path) else { fatalError("cannot enter \(scratch.path)") }
    defer {
        _ = FileManager.default.changeCurrentDirectoryPath(previousDirectory)
        try? FileManager.default.removeItem(at: scratch)
    }

    let cases: [(name: String, executable: URL, arguments: [String])] = [
        ("hello", hello, []),
        ("hello-foundation", helloFoundation, []),
        ("hello-essentials", helloEssentials, []),
        ("hello-manifest", helloManifest, []),
        ("app-shell", appShell, ["modules"]),
    ]
    let peakMemory = locations.binDirectory.appendingPathComponent("peak-memory")
    for item in cases { for _ in 0..<3 { _ = launch(item.executable, item.arguments, peakMemory: peakMemory) } }  // warm-up
    var times: [String: [Double]] = [:]
    var memory: [String: [Double]] = [:]
    for _ in 0..<(quick ? 7 : 25) {
        for item in cases {
            let run = launch(item.executable, item.arguments, peakMemory: peakMemory)
            times[item.name, default: []].append(run.milliseconds)
            memory[item.name, default: []].append(run.peakKiB)
        }
    }
    let time = times.mapValues { Stats(samples: $0).median }
    let peak = memory.mapValues { Stats(samples: $0).median }
    let (shell, essentials) = (time["app-shell"] ?? .nan, time["hello-essentials"] ?? .nan)
    let (shellPeak, essentialsPeak) = (peak["app-shell"] ?? .nan, peak["hello-essentials"] ?? .nan)
    let (floor, floorPeak) = (time["hello-manifest"] ?? .nan, peak["hello-manifest"] ?? .nan)
    let benchmark = staticStdlib ? "shell, all --static-swift-stdlib" : "shell (start to exit)"
    func context(_ subject: String, _ baseline: String, _ ratio: Double, _ absolute: String) -> Row {
        Row(benchmark: benchmark, subject: subject, baseline: baseline, ratio: ratio, absolute: absolute,
            target: "context", verdict: .info)
    }
    /// Against the floor, `hello-manifest` (the same listing written by hand): at most 1.25x in time and in memory.
    func judged(_ subject: String, _ ratio: Double, _ absolute: String) -> Row {
        Row(benchmark: benchmark, subject: subject, baseline: "hello-manifest (the same listing by hand)",
            ratio: ratio, absolute: absolute, target: staticStdlib ? "context" : "≤ 1.25x",
            verdict: staticStdlib ? .info : (ratio <= 1.25 ? .met : .missed))
    }
    return [
        judged("app-shell modules, time", shell / floor, "\(format(ms: shell)) vs \(format(ms: floor))"),
        judged("app-shell modules, peak memory", shellPeak / floorPeak,
               String(format: "%.1f MiB vs %.1f MiB", shellPeak / 1024, floorPeak / 1024)),
        context("app-shell modules, time", "hello-essentials (release, FoundationEssentials)", shell / essentials,
                "\(format(ms: shell)) vs \(format(ms: essentials))"),
        context("app-shell modules, peak memory", "hello-essentials (release, FoundationEssentials)",
                shellPeak / essentialsPeak, String(format: "%.1f MiB vs %.1f MiB", shellPeak / 1024, essentialsPeak / 1024)),
        context("hello-manifest (the same listing by hand: typed configs, JSONDecoder), time", "hello-essentials",
                floor / essentials, "\(format(ms: floor)) vs \(format(ms: essentials))"),
        context("hello-manifest, peak memory", "hello-essentials", floorPeak / essentialsPeak,
                String(format: "%.1f MiB vs %.1f MiB", floorPeak / 1024, essentialsPeak / 1024)),
        context("hello-essentials", "hello (release, no Foundation)", essentials / (time["hello"] ?? .nan),
                "\(format(ms: essentials)) vs \(format(ms: time["hello"] ?? .nan))"),
        context("hello-foundation", "hello-essentials", (time["hello-foundation"] ?? .nan) / essentials,
                "\(format(ms: time["hello-foundation"] ?? .nan)) vs \(format(ms: essentials)), peak "
                    + String(format: "%.1f MiB", (peak["hello-foundation"] ?? .nan) / 1024)),
    ]
}
