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

/// Builds the root package's `app-shell` in release mode (a no-op when it is up to date) and returns its path.
func buildAppShell(root: URL) -> URL {
    let swift = URL(fileURLWithPath: "/usr/bin/env")
    progress("shell: swift build -c release --product app-shell --package-path \(root.path)")
    runToCompletion(swift, ["swift", "build", "-c", "release", "--product", "app-shell", "--package-path", root.path],
                    output: false)
    let bin = runToCompletion(swift, ["swift", "build", "-c", "release", "--package-path", root.path, "--show-bin-path"])
        .trimmingCharacters(in: .whitespacesAndNewlines)
    return URL(fileURLWithPath: bin).appendingPathComponent("app-shell")
}

/// Start-to-exit wall time of one run, standard output discarded, in milliseconds.
func launchTime(_ executable: URL, _ arguments: [String], in directory: URL) -> Double {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = clock.now
    do { try process.run() } catch { fatalError("cannot run \(executable.path): \(error)") }
    process.waitUntilExit()
    let elapsed = clock.now - start
    guard process.terminationStatus == 0 else {
        fatalError("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
    }
    return elapsed.milliseconds
}

func shellBenchmarks(quick: Bool, build: Bool) -> [Row] {
    let locations = Locations.current()
    let appShell = build
        ? buildAppShell(root: locations.root)
        : locations.root.appendingPathComponent(".build/release/app-shell")
    let hello = locations.binDirectory.appendingPathComponent("hello")
    let helloFoundation = locations.binDirectory.appendingPathComponent("hello-foundation")
    for executable in [appShell, hello, helloFoundation] where !FileManager.default.isExecutableFile(atPath: executable.path) {
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
    defer { try? FileManager.default.removeItem(at: scratch) }

    let cases: [(name: String, executable: URL, arguments: [String])] = [
        ("hello", hello, []),
        ("hello-foundation", helloFoundation, []),
        ("app-shell", appShell, ["modules"]),
    ]
    for item in cases { for _ in 0..<3 { _ = launchTime(item.executable, item.arguments, in: scratch) } }  // warm-up
    var samples: [String: [Double]] = [:]
    for _ in 0..<(quick ? 7 : 25) {
        for item in cases {
            samples[item.name, default: []].append(launchTime(item.executable, item.arguments, in: scratch))
        }
    }
    let stats = samples.mapValues(Stats.init)
    let baseline = stats["hello"]!.median
    let foundation = stats["hello-foundation"]!.median
    let shell = stats["app-shell"]!.median
    return [
        Row(benchmark: "shell (start to exit)", subject: "app-shell modules", baseline: "hello (release, no Foundation)",
            ratio: shell / baseline, absolute: "\(format(ms: shell)) vs \(format(ms: baseline))",
            target: "≤ 1.3x", verdict: shell / baseline <= 1.3 ? .met : .missed),
        Row(benchmark: "shell (start to exit)", subject: "hello-foundation", baseline: "hello (release, no Foundation)",
            ratio: foundation / baseline, absolute: "\(format(ms: foundation)) vs \(format(ms: baseline))",
            target: "context", verdict: .info),
        Row(benchmark: "shell (start to exit)", subject: "app-shell modules", baseline: "hello-foundation",
            ratio: shell / foundation, absolute: "\(format(ms: shell)) vs \(format(ms: foundation))",
            target: "context", verdict: .info),
    ]
}
