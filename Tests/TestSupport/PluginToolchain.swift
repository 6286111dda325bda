import Foundation

/// What the plugin tests that build code need: the repository, the host's module folder, and a way to run
/// tools (compilers, the repository's scripts, hosts) without blocking a thread of the cooperative pool.
package enum PluginToolchain {
    package struct Result: Sendable {
        package let status: Int32
        /// Whether the process ended by a signal (a crash) rather than an exit.
        package let signaled: Bool
        package let stdout: String
        package let stderr: String
        package var all: String { stdout + stderr }
    }

    /// The repository's root.
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder holding the `.swiftmodule` of the app-shell under test: its bin path + `/Modules`.
    package static var hostModules: URL {
        get throws { try ShellProcess.executable.deletingLastPathComponent().appendingPathComponent("Modules") }
    }

    /// Runs `arguments[0]` (looked up in `PATH`) with the rest of `arguments` in `directory`; kills it after `timeout`.
    package static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                    timeout: Duration = .seconds(600)) async throws -> Result {
        let folder = try ProcessScratch.folder("plugin-tool")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("stdout"), err = folder.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: out.path, contents: nil),
              FileManager.default.createFile(atPath: err.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: folder.path])
        }
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        defer { try? outHandle.close(); try? errHandle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The child changes directory itself: Foundation's currentDirectoryURL races with parallel spawns on Linux.
        process.arguments = ["-c", #"cd "$1" && shift && exec "$@""#, "sh", (directory ?? folder).path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outHandle
        process.standardError = errHandle
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            process.terminate()
        }
        for await _ in exited.stream {}
        watchdog.cancel()
        return Result(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                      stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// Runs a build step; throws with its output when it fails.
    @discardableResult
    package static func step(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) async throws -> Result {
        let result = try await run(arguments, in: directory, environment: environment)
        guard result.status == 0, !result.signaled else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(arguments.joined(separator: " ")) failed (\(result.status)):\n\(result.all)"])
        }
        return result
    }

    /// Runs Scripts/stamp-plugin.sh with `arguments`.
    package static func stampScript(_ arguments: [String]) async throws -> Result {
        try await run(["/bin/bash", root.appendingPathComponent("Scripts/stamp-plugin.sh").path] + arguments)
    }

    /// The ABI mark of the ModuleHost interface in `modules` (the mark its build generated into ModuleHost.swiftmodule).
    package static func interfaceMark(_ modules: URL) async throws -> String {
        let result = try await stampScript(["--interface-mark", modules.path])
        guard result.status == 0 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no interface mark in \(modules.path):\n\(result.all)"])
        }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stamps `library` with the mark its code carries, which must be the one of the interface in `modules`.
    package static func stamp(_ library: URL, interface modules: URL) async throws {
        let result = try await stampScript([library.path, "--interface", modules.path])
        guard result.status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "stamp-plugin.sh failed (\(result.status)):\n\(result.all)"])
        }
    }

    /// The first line of `library`'s `modulehost_abi` section, its ModuleHost mark (empty when it has none).
    package static func stampedMark(of library: URL) async throws -> String {
        try await stampedLines(of: library).first ?? ""
    }

    /// The lines after the mark in `library`'s `modulehost_abi` section: the other host modules it records.
    package static func stampedModules(of library: URL) async throws -> [String] {
        try await stampedLines(of: library).dropFirst().filter { !$0.isEmpty }
    }

    /// The lines of `library`'s `modulehost_abi` section (none when it has none).
    private static func stampedLines(of library: URL) async throws -> [String] {
        let folder = try ProcessScratch.folder("stamped-section")
        defer { try? FileManager.default.removeItem(at: folder) }
        let section = folder.appendingPathComponent("section")
        _ = try await run(["objcopy", "--dump-section", "modulehost_abi=\(section.path)", library.path, folder.appendingPathComponent("copy").path])
        return ((try? String(contentsOf: section, encoding: .utf8)) ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The SHA-256 of `file`, as the manifest's `sha256` wants it.
    package static func sha256(of file: URL) async throws -> String {
        let result = try await step(["sha256sum", file.path])
        return String(result.stdout.prefix(64))
    }

    /// Copies `library` into `plugins/` of `workspace` (folder and file not writable by group or others) and
    /// writes a manifest naming `type` in it, pinned by its SHA-256.
    package static func install(_ library: URL, type: String, in workspace: URL) async throws {
        let plugins = workspace.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        let installed = plugins.appendingPathComponent(library.lastPathComponent)
        try FileManager.default.copyItem(at: library, to: installed)
        for (path, mode) in [(workspace, 0o755), (plugins, 0o755), (installed, 0o755)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path.path)
        }
        let sha = try await sha256(of: installed)
        let manifest = #"{"modules": [{"type": "\#(type)", "library": "plugins/\#(library.lastPathComponent)", "sha256": "\#(sha)"}]}"#
        try Data(manifest.utf8).write(to: workspace.appendingPathComponent("modules.json"))
    }
}

/// Runs build steps one after another, so tests running in parallel do not build hosts at the same time
/// (2 cores: parallel compiler runs only thrash).
package actor BuildQueue {
    package static let shared = BuildQueue()
    private var tail: Task<Void, Never> = Task {}

    package func enqueue<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let previous = tail
        let task = Task {
            await previous.value
            return try await work()
        }
        tail = Task { _ = try? await task.value }
        return try await task.value
    }
}
