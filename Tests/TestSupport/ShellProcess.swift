import Foundation
import ModuleHost

/// Runs the built `app-shell` binary with scripted input in a directory of its own.
package struct ShellProcess {
    package struct Result {
        package let status: Int32
        package let stdout: String
        package let stderr: String
        package var all: String { stdout + stderr }
    }

    /// The `app-shell` built next to the test bundle.
    package static var executable: URL {
        get throws {
            let candidates = [
                URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            ]
            for directory in candidates {
                let url = directory.appendingPathComponent("app-shell")
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "app-shell next to \(candidates[0].path)"])
        }
    }

    /// A process that runs `app-shell arguments` in `directory`, as `user` (uid, gid; through setpriv) when given.
    ///
    /// The child changes directory itself (through `sh`): Foundation's `currentDirectoryURL` changes the
    /// parent's directory while spawning on Linux, which races with other tests spawning in parallel.
    package static func makeProcess(_ arguments: [String], in directory: URL, as user: (uid: uid_t, gid: gid_t)? = nil) throws -> Process {
        let process = Process()
        var prefix: [String] = []
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            prefix = ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "/bin/sh"]
        } else {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
        }
        process.arguments = prefix + ["-c", #"cd "$1" && shift && exec "$@""#, "sh", directory.path, try executable.path] + arguments
        return process
    }

    /// Runs `app-shell arguments` in `directory`, feeding `input`, and waits (at most `timeout` seconds)
    /// without blocking a thread of the cooperative pool, which other tests' tasks need.
    package static func run(_ arguments: [String], input: String = "", in directory: URL, as user: (uid: uid_t, gid: gid_t)? = nil,
                    environment: [String: String] = [:], timeout: Double = 60) async throws -> Result {
        let process = try makeProcess(arguments, in: directory, as: user)
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        process.environment = env
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let outputs = OutputCollector(stdout: stdout, stderr: stderr)
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in
            exited.continuation.yield()
            exited.continuation.finish()
        }
        try process.run()
        // Written on a thread of its own: input larger than the pipe's buffer blocks until the shell reads it, and a
        // blocked thread of the cooperative pool would starve other tests' tasks.
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let fired = Locked(false)
        let watchdog = Task {
            try await Task.sleep(for: .seconds(timeout))
            fired.withLock { $0 = true }
            process.terminate()
        }
        for await _ in exited.stream {}
        watchdog.cancel()
        let timedOut = fired.withLock { $0 }
        let (out, err) = await outputs.finish()
        if timedOut {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "app-shell \(arguments) did not finish within \(timeout) s"])
        }
        return Result(status: process.terminationStatus, stdout: out, stderr: err)
    }
}

/// Drains both pipes on background threads so a chatty child can never block on a full pipe.
private final class OutputCollector: Sendable {
    private let out = Locked(Data()), err = Locked(Data())
    private let group = DispatchGroup()

    package init(stdout: Pipe, stderr: Pipe) {
        group.enter()
        DispatchQueue.global().async { [out, group] in
            let data = stdout.fileHandleForReading.readDataToEndOfFile()
            out.withLock { $0 = data }
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async { [err, group] in
            let data = stderr.fileHandleForReading.readDataToEndOfFile()
            err.withLock { $0 = data }
            group.leave()
        }
    }

    package func finish() async -> (String, String) {
        await withCheckedContinuation { continuation in
            group.notify(queue: .global()) { continuation.resume() }
        }
        return (out.withLock { String(decoding: $0, as: UTF8.self) }, err.withLock { String(decoding: $0, as: UTF8.self) })
    }
}

/// A temporary working directory holding a manifest, removed at the end of the test.
package final class Workspace {
    package let url: URL

    package init(manifest: String? = Workspace.demoManifest) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("app-shell-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        if let manifest { try write(manifest, to: "modules.json") }
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    package func write(_ text: String, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    package func run(_ arguments: [String] = [], input: String = "", environment: [String: String] = [:]) async throws -> ShellProcess.Result {
        try await ShellProcess.run(arguments, input: input, in: url, environment: environment)
    }

    /// The repository's own modules.json, so the tests exercise what a new user runs.
    package static var demoManifest: String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("modules.json"), encoding: .utf8)) ?? ""
    }
}
