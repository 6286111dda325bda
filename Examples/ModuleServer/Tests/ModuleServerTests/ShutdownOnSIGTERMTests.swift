import Foundation
import Testing

/// Runs the built `module-server` as a child process, as an operator would, and stops it with SIGTERM.
@Suite("The server executable on SIGTERM", .timeLimit(.minutes(1)))
struct ShutdownOnSIGTERMTests {
    /// Finds the executable next to the test binary, looking up from it a few folders.
    static func findExecutable() throws -> URL {
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("module-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw HTTPGet.Failure(description: "module-server was not built next to the tests (looked up from /proc/self/exe)")
    }

    @Test func unloadsInReverseOrderFinishingEachTeardownAndExitsZero() async throws {
        let process = Process()
        process.executableURL = try Self.findExecutable()
        process.arguments = ["--manifest", InProcessServerTests.manifest, "--port", "0"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let child = ChildOutput(output.fileHandleForReading, of: process)
        // Never hang the suite: a child still running after 30 s is killed, and the checks below then fail.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(30))
            kill(process.processIdentifier, SIGKILL)
        }
        defer { watchdog.cancel() }

        let listening = try #require(await child.first { $0.contains("listening on 127.0.0.1:") }, "no listening line")
        let port = try #require(listening.split(separator: ":").last.flatMap { Int($0) })
        #expect(try HTTPGet.get("/hello/Grace", port: port).body == "Hello, Grace!\n")

        kill(process.processIdentifier, SIGTERM)
        let rest = await child.remaining()
        let status = await child.exitStatus()

        #expect(process.terminationReason == .exit, "\(rest)")
        #expect(status == 0, "\(rest)")
        let teardown = rest
            .compactMap { line in line.range(of: "teardown ").map { String(line[$0.lowerBound...]) } }
            .filter { $0.hasPrefix("teardown began ") || $0.hasPrefix("teardown finished ") }
        #expect(teardown == [
            "teardown began example.status", "teardown finished example.status",
            "teardown began example.greeting", "teardown finished example.greeting",
        ])
        let finishedGreeting = try #require(rest.firstIndex { $0.contains("teardown finished example.greeting") })
        let stopped = try #require(rest.firstIndex { $0.contains("stopped") })
        #expect(finishedGreeting < stopped, "every teardown finished before the process said it stopped")
    }
}

/// A child's standard output as lines, then its exit status. A thread of its own does the blocking reads (so no
/// concurrency thread is blocked, and the end of the output is seen for certain), then waits for the exit.
final class ChildOutput: Sendable {
    private let lines: AsyncStream<String>
    private let iterator: IteratorBox
    private let status: AsyncStream<Int32>

    init(_ handle: FileHandle, of process: Process) {
        let (lines, lineContinuation) = AsyncStream<String>.makeStream()
        let (status, statusContinuation) = AsyncStream<Int32>.makeStream()
        self.lines = lines
        self.status = status
        iterator = IteratorBox(lines.makeAsyncIterator())
        let descriptor = handle.fileDescriptor
        let box = ProcessBox(process)
        let reader = Thread {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    lineContinuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            if !pending.isEmpty { lineContinuation.yield(String(decoding: pending, as: UTF8.self)) }
            lineContinuation.finish()
            box.process.waitUntilExit()
            statusContinuation.yield(box.process.terminationStatus)
            statusContinuation.finish()
        }
        reader.start()
    }

    /// The first line from here on that matches, or nil when the output ended first.
    func first(where matches: (String) -> Bool) async -> String? {
        while let line = await iterator.next() {
            if matches(line) { return line }
        }
        return nil
    }

    /// Every line from here on, until the output ends.
    func remaining() async -> [String] {
        var result: [String] = []
        while let line = await iterator.next() { result.append(line) }
        return result
    }

    /// The exit status, once the process has exited.
    func exitStatus() async -> Int32? {
        var statuses = status.makeAsyncIterator()
        return await statuses.next()
    }
}

/// The line iterator, used by one test task at a time.
private final class IteratorBox: @unchecked Sendable {
    private var iterator: AsyncStream<String>.Iterator
    init(_ iterator: AsyncStream<String>.Iterator) { self.iterator = iterator }
    func next() async -> String? { await iterator.next() }
}

/// `Process` handed to the reader thread.
private final class ProcessBox: @unchecked Sendable {
    let process: Process
    init(_ process: Process) { self.process = process }
}
