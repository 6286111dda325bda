import Foundation

/// Runs a child process to completion without blocking a thread of the cooperative pool (other tests'
/// tasks need those threads): the exit is awaited through the process's termination handler, raced
/// against a timeout.
///
/// The child writes to files rather than pipes, so nothing has to drain a pipe while it runs, and a child
/// that is killed at the timeout cannot leave a reader waiting on a pipe its own children still hold open.
/// Nothing is lock-guarded: under Thread Sanitizer (`.ci/run`), `Synchronization.Mutex` is invisible and
/// would be reported as a race.
enum Subprocess {
    struct Result: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `executable arguments`; terminates it and throws if it has not exited within `timeout`.
    static func run(_ executable: URL, _ arguments: [String], timeout: Duration) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("subprocess-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stdout = try outputFile(folder.appendingPathComponent("stdout"))
        let stderr = try outputFile(folder.appendingPathComponent("stderr"))
        defer { try? stdout.handle.close(); try? stderr.handle.close() }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout.handle
        process.standardError = stderr.handle
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()

        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in exited.stream {}
                return true
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        guard finished else {
            process.terminate()
            let command = ([executable.path] + arguments).joined(separator: " ")
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "`\(command)` did not finish within \(timeout)"])
        }
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: try Data(contentsOf: stdout.url), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: stderr.url), as: UTF8.self))
    }

    private static func outputFile(_ url: URL) throws -> (url: URL, handle: FileHandle) {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return (url, try FileHandle(forWritingTo: url))
    }
}
