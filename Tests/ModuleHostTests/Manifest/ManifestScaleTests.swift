import Foundation
import Testing
@testable import ModuleHost
@testable import ModuleHostJSON
import ModuleHostTesting

/// Manifests at scale cost work linear in their size and get bounded reports.
///
/// Came from Regression/ (added in fb5f0e9, with the linear-time string parser);
/// now filed under the feature it protects.
@Suite("Manifests at scale", .disabled(if: Sanitizers.threadSanitizerIsActive, "CPU-bound, proves no concurrency property; runs in the plain suite"))
struct ManifestScaleTests {
    private func errors(_ data: Data) -> [ManifestDiagnostic] {
        do {
            try ModuleManager.forTesting().registerModules(from: data, file: "modules.json")
            return []
        } catch {
            return error.diagnostics
        }
    }

    /// How long one parse of a document holding one string of `count` `\u00e9` escapes took.
    private func timedParse(escapes count: Int) throws -> Duration {
        let document = Array(("\"" + String(repeating: #"\u00e9"#, count: count) + "\"").utf8)
        let clock = ContinuousClock()
        let start = clock.now
        let value = try JSONParser.parse(document)
        let duration = clock.now - start
        guard case .string(let text) = value.kind else { Issue.record("not a string"); return duration }
        #expect(text.unicodeScalars.count == count)
        return duration
    }

    /// Point 3: a ratio of two sizes, not a timed assertion. Linear parsing makes 4x the escapes cost about 4x;
    /// the old per-escape append made it cost about 16x (measured 12x to 16x in debug builds). The sizes are
    /// parsed in turn, five times each, and the fastest of each compared: a burst of load only ever adds time,
    /// and does not fall on one size alone.
    @Test func stringOfEscapesParsesInLinearTime() throws {
        var small = Duration.seconds(1_000)
        var large = Duration.seconds(1_000)
        for _ in 0..<5 {
            small = min(small, try timedParse(escapes: 40_000))
            large = min(large, try timedParse(escapes: 160_000))
        }
        let ratio = large / small
        #expect(ratio < 8, "4x the escapes cost \(ratio)x the time (\(small) -> \(large)); linear is about 4x")
    }

    /// Point 4: a manifest of 200,000 unknown type names (4 MB) gets the bounded report; candidates are looked up
    /// once and the validator stops at the cap, so this takes well under a second in release builds.
    @Test func manyUnknownTypeNamesGiveABoundedReportQuickly() {
        let names = (0..<200_000).map { "\"Hostile.Name\($0)\"" }.joined(separator: ",")
        let found = errors(Data("{\"modules\": [\(names)]}".utf8))
        #expect(found.count == DiagnosticSink.maximumDiagnostics + 1)
        #expect(found.dropLast().allSatisfy { $0.code == .unknownType })
        #expect(found.last?.code == .tooManyProblems)
    }

    /// Point 5: 280,000 entries of one module (a duplicate identifier each; as many as fit in 8 MB) feed the one cap.
    @Test func manyDuplicateEntriesGiveABoundedReport() {
        let entries = Array(repeating: "\"ModuleHostTests.BaseModule\"", count: 280_000).joined(separator: ",")
        let found = errors(Data("{\"modules\": [\(entries)]}".utf8))
        #expect(found.count == DiagnosticSink.maximumDiagnostics + 1)
        #expect(found.dropLast().allSatisfy { $0.code == .duplicateIdentifier })
        #expect(found.last?.code == .tooManyProblems)
    }

    /// Point 5: 400,000 overrides of operations the module does not declare feed the same cap.
    @Test func manyUnknownOperationOverridesGiveABoundedReport() {
        let overrides = (0..<400_000).map { "\"op\($0)\": {}" }.joined(separator: ",")
        let json = "{\"modules\": [{\"type\": \"ModuleHostTests.BaseModule\", \"operations\": {\(overrides)}}]}"
        let found = errors(Data(json.utf8))
        #expect(found.count == DiagnosticSink.maximumDiagnostics + 1)
        #expect(found.dropLast().allSatisfy { $0.code == .unknownOperation })
        #expect(found.last?.code == .tooManyProblems)
    }

    /// Point 5: reader and validator problems share the cap with every validation pass (here the reader's wrong
    /// types, then unknown names, then duplicates): the report never passes 1,001 lines.
    @Test func everyStageFeedsOneCap() {
        let wrong = Array(repeating: "1", count: 400)
        let unknown = (0..<400).map { "\"Hostile.Name\($0)\"" }
        let duplicates = Array(repeating: "\"ModuleHostTests.BaseModule\"", count: 400)
        let found = errors(Data("{\"modules\": [\((wrong + unknown + duplicates).joined(separator: ","))]}".utf8))
        #expect(found.count == DiagnosticSink.maximumDiagnostics + 1)
        #expect(Set(found.map(\.code)) == [.wrongType, .unknownType, .duplicateIdentifier, .tooManyProblems])
    }
}

/// A manifest path that is not a regular file is refused without blocking.
@Suite("Manifest file kinds")
struct ManifestFileKindTests {
    /// Reads `url` on a thread of its own; a watchdog turns a read that blocks into a failure instead of a hang.
    private func readWithWatchdog(_ url: URL) async -> ManifestReader.Result? {
        await withCheckedContinuation { (continuation: CheckedContinuation<ManifestReader.Result?, Never>) in
            let once = OnceFlag()
            let thread = Thread {
                let result = ManifestReader.read(contentsOf: url)
                if once.claim() { continuation.resume(returning: result) }
            }
            thread.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + 10) {
                if once.claim() { continuation.resume(returning: nil) }
            }
        }
    }

    @Test func aFIFOIsRefusedWithoutBlocking() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("modules.json")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let result = await readWithWatchdog(fifo)
        guard let result else {
            // The old reader blocks in open(2) until a writer comes; release it so the thread can end.
            let writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            Issue.record("reading a FIFO as the manifest blocked for 10 s")
            return
        }
        #expect(result.manifest == nil)
        #expect(result.diagnostics.map(\.code) == [.notARegularFile])
        #expect(result.diagnostics.first?.message.contains("FIFO") == true)
    }

    @Test func aCharacterDeviceIsRefused() async throws {
        let result = await readWithWatchdog(URL(fileURLWithPath: "/dev/zero"))
        #expect(result?.diagnostics.map(\.code) == [.notARegularFile])
    }

    @Test func aRegularFileIsStillRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("modules.json")
        try Data(#"{"modules": ["ModuleHostTests.BaseModule"]}"#.utf8).write(to: file)
        let result = ManifestReader.read(contentsOf: file)
        #expect(result.diagnostics.isEmpty)
        #expect(result.manifest?.modules.map(\.typeName) == ["ModuleHostTests.BaseModule"])
        #expect(ManifestReader.read(contentsOf: directory).diagnostics.map(\.code) == [.isDirectory])
        #expect(ManifestReader.read(contentsOf: directory.appendingPathComponent("none.json")).diagnostics.map(\.code) == [.fileNotFound])
    }
}

/// Lets exactly one of several racing callers through.
private final class OnceFlag: Sendable {
    private let claimed = Locked(false)

    func claim() -> Bool {
        claimed.withLock { value in
            defer { value = true }
            return !value
        }
    }
}
