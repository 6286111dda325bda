import ModuleHost
import Foundation
import Testing

/// SIGINT and SIGTERM shut the shell down in order, with the documented exit status, and never hang.
@Suite("app-shell signals")
struct SignalTests {
    /// Starts app-shell with standard input left open, waits until stdout contains `marker`, sends `signal`.
    private func interrupt(_ arguments: [String], manifest: String? = Workspace.demoManifest, after marker: String?,
                           delay: Double = 0, signal: Int32) async throws -> (status: Int32, stdout: String, stderr: String) {
        let workspace = try Workspace(manifest: manifest)
        let process = try ShellProcess.makeProcess(arguments, in: workspace.url)
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let out = Buffer(), err = Buffer()
        stdout.fileHandleForReading.readabilityHandler = { out.append($0.availableData) }
        stderr.fileHandleForReading.readabilityHandler = { err.append($0.availableData) }
        try process.run()
        defer { try? stdin.fileHandleForWriting.close() }
        // Poll with Task.sleep, not Thread.sleep: a blocked thread would starve other tests' tasks.
        let deadline = Date().addingTimeInterval(60)
        if let marker {
            while !out.text.contains(marker), process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        }
        if delay > 0 { try await Task.sleep(for: .seconds(delay)) }
        kill(process.processIdentifier, signal)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning {
            process.terminate()
            Issue.record("app-shell did not exit after signal \(signal)")
        }
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        stdout.fileHandleForReading.readabilityHandler = nil
        stderr.fileHandleForReading.readabilityHandler = nil
        return (process.terminationStatus, out.text, err.text)
    }

    @Test func sigtermAtThePromptShutsDownWith143() async throws {
        let result = try await interrupt([], after: "total:", signal: SIGTERM)
        #expect(result.status == 143)
        #expect(result.stdout.contains("auth.restore-session"))
    }

    @Test func sigintAtThePromptShutsDownWith130() async throws {
        let result = try await interrupt([], after: "total:", signal: SIGINT)
        #expect(result.status == 130)
    }

    @Test func sigintDuringStartupCancelsAndExits130() async throws {
        // A prime table of 2^28 takes long enough to build that the signal lands during startup on most runs;
        // either way the shell must exit 130 without waiting for the sieve, which ignores cancellation.
        let manifest = #"{"modules": [{"type": "NumbersModule.NumbersModule", "config": {"primeTableBound": 268435456}}]}"#
        let result = try await interrupt(["-q"], manifest: manifest, after: nil, delay: 0.3, signal: SIGINT)
        #expect(result.status == 130)
    }
}

/// Bytes arriving on a pipe, from the pipe's handler thread.
private final class Buffer: Sendable {
    private let data = Locked(Data())
    func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }
    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}
