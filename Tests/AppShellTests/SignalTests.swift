import ModuleHost
import Foundation
import Testing

/// SIGINT and SIGTERM shut the shell down in order, with the documented exit status, and never hang.
@Suite("app-shell signals")
struct SignalTests {
    /// Starts app-shell with standard input left open, waits until stdout contains `marker`, sends `signal`.
    private func interrupt(_ arguments: [String], manifest: String? = Workspace.demoManifest, after marker: String,
                           signal: Int32) async throws -> (status: Int32, stdout: String, stderr: String) {
        let out = Buffer()
        return try await interrupt(arguments, in: try Workspace(manifest: manifest), output: out,
                                   when: { out.text.contains(marker) }, signal: signal)
    }

    /// Starts app-shell in `workspace` with `input` written and standard input left open, waits until `ready()`
    /// (recording an issue if the shell exits or a minute passes first), sends `signal` and waits for the exit.
    private func interrupt(_ arguments: [String], in workspace: Workspace, input: String = "", output out: Buffer = Buffer(),
                           when ready: () -> Bool, signal: Int32) async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try ShellProcess.makeProcess(arguments, in: workspace.url)
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let err = Buffer()
        out.drain(stdout)
        err.drain(stderr)
        try process.run()
        defer { try? stdin.fileHandleForWriting.close() }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        // Poll with Task.sleep, not Thread.sleep: a blocked thread would starve other tests' tasks.
        let deadline = Date().addingTimeInterval(60)
        while !ready(), process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        if !ready() { Issue.record("app-shell never became ready for signal \(signal); stderr: \(err.text)") }
        kill(process.processIdentifier, signal)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)  // not SIGTERM: a shell that ignored one signal may ignore another
            Issue.record("app-shell did not exit after signal \(signal)")
        }
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        // Everything the shell wrote before it exited, up to the end of each pipe.
        await out.finished()
        await err.finished()
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

    @Test func sigintDuringStartupCancelsTheBlockedOperationAndExits130() async throws {
        // numbers.load-history (.asyncHigh, a phase that blocks startup) reads numbers-history.json from the
        // state directory; as a FIFO, its open() blocks until a writer comes. The test's non-blocking open for
        // writing succeeds only once the shell holds the read end, so the signal lands while that operation is
        // running, and it never finishes: the shell must give up on it. numbers.warm-primes is moved to the
        // phase after startup, so it must never start. Input is waiting, so a prompt would run it.
        let workspace = try Workspace(manifest: """
            {"modules": [{"type": "ClockModule.ClockModule", "eager": true},
                         {"type": "AuthModule.AuthModule", "config": {"users": [{"username": "alice", "passwordHash": "$y$j9T$zv4vibxmtz7dU93dcmtBb0$dDa.LWc8n.rpvaxSYdg/Bus2kw1DnqtxQ3VvHODvuG0"}]}},
                         {"type": "NumbersModule.NumbersModule", "config": {"primeTableBound": 1000},
                          "operations": {"numbers.warm-primes": {"priority": "afterFirstFrame"}}}]}
            """)
        let state = workspace.url.appendingPathComponent(".app-shell")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let fifo = state.appendingPathComponent("numbers-history.json").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = Locked<Int32>(-1)
        defer { writer.withLock { if $0 >= 0 { close($0) } } }
        let result = try await interrupt(["--verbose", "--json"], in: workspace, input: "fact 28\n", when: {
            writer.withLock { fd in
                if fd < 0 { fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC) }  // ENXIO until a reader has it open
                return fd >= 0
            }
        }, signal: SIGINT)

        #expect(result.status == 130)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                  "the startup report, and nothing else: \(result.stdout)")
        let operations = try #require(report["operations"] as? [[String: Any]])
        let records = Dictionary(uniqueKeysWithValues: operations.compactMap { op in (op["identifier"] as? String).map { ($0, op) } })
        #expect(records["auth.restore-session"]?["state"] as? String == "succeeded")
        #expect(records["numbers.load-history"]?["state"] as? String == "cancelled")
        #expect(records["numbers.load-history"]?["startedAtMs"] != nil, "it was running when cancelled")
        #expect(records["numbers.warm-primes"]?["state"] as? String != "succeeded")
        #expect(records["numbers.warm-primes"]?["startedAtMs"] == nil, "the later phase never started")
        #expect(result.stderr.contains("startup interrupted;"))
        #expect(!result.stdout.contains("perfect number"), "no command ran")
        // Unloaded in reverse load order: the eager clock first, auth in .high, numbers in .asyncHigh.
        let unloaded = result.stderr.split(separator: "\n").filter { $0.hasPrefix("unloaded ") }
        #expect(unloaded == ["unloaded com.modulehost.numbers", "unloaded com.modulehost.auth", "unloaded com.modulehost.clock"])
    }
}

/// Bytes arriving on a pipe, read as they come on a thread of its own (which the end of the pipe ends), so the text
/// can be watched while the shell runs and is complete once ``finished()`` returns.
private final class Buffer: Sendable {
    private let data = Locked(Data())
    private let done = DispatchGroup()

    func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }
    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Starts reading `pipe` until its end.
    func drain(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        done.enter()
        Thread { [done] in
            while case let chunk = handle.availableData, !chunk.isEmpty { self.append(chunk) }
            done.leave()
        }.start()
    }

    /// Waits until the pipe has ended, without blocking a thread of the cooperative pool.
    func finished() async {
        await withCheckedContinuation { continuation in done.notify(queue: .global()) { continuation.resume() } }
    }
}
