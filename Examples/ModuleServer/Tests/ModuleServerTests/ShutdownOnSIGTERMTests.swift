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
        throw LineReader.Failure(description: "module-server was not built next to the tests (looked up from /proc/self/exe)")
    }

    @Test func unloadsInReverseOrderFinishingEachTeardownAndExitsZero() async throws {
        let process = Process()
        process.executableURL = try Self.findExecutable()
        process.arguments = ["--manifest", InProcessServerTests.manifest, "--port", "0"]
        let output = Pipe()
        process.standardOutput = output
        let lines = LineReader(output.fileHandleForReading)
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { exited.continuation.yield($0.terminationStatus) }
        try process.run()

        let listening = try #require(await lines.first { $0.contains("listening on 127.0.0.1:") }, "no listening line")
        let port = try #require(listening.split(separator: ":").last.flatMap { Int($0) })
        #expect(try HTTPGet.get("/hello/Grace", port: port).body == "Hello, Grace!\n")

        kill(process.processIdentifier, SIGTERM)
        var statuses = exited.stream.makeAsyncIterator()
        let status = await statuses.next()
        let rest = await lines.remaining()

        #expect(process.terminationReason == .exit)
        #expect(status == 0)
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

/// Lines read from a pipe as they arrive, without blocking a concurrency thread (the handle's readability
/// handler runs on its own queue).
final class LineReader: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { let description: String }

    private let lines: AsyncStream<String>
    private var iterator: AsyncStream<String>.Iterator

    init(_ handle: FileHandle) {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        lines = stream
        iterator = stream.makeAsyncIterator()
        let pending = PendingText()
        handle.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                if let last = pending.flush() { continuation.yield(last) }
                continuation.finish()
                return
            }
            for line in pending.append(data) { continuation.yield(line) }
        }
    }

    /// The first line (from the current position) that matches, or nil when the output ended first.
    func first(where matches: (String) -> Bool) async -> String? {
        while let line = await iterator.next() {
            if matches(line) { return line }
        }
        return nil
    }

    /// Every line until the output ends.
    func remaining() async -> [String] {
        var result: [String] = []
        while let line = await iterator.next() { result.append(line) }
        return result
    }
}

/// Bytes read so far that do not yet end a line.
private final class PendingText: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()

    func append(_ data: Data) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        buffer.append(data)
        var lines: [String] = []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
            buffer = Data(buffer[buffer.index(after: newline)...])
        }
        return lines
    }

    func flush() -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard !buffer.isEmpty else { return nil }
        defer { buffer = Data() }
        return String(decoding: buffer, as: UTF8.self)
    }
}
