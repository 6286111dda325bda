import Logging
import ModuleHost
import ModuleHostServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import Testing

/// Collects what a logger hears; each test has its own, so parallel tests share nothing.
final class LogCapture: Sendable {
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
    }

    private let storage = Mutex<[Entry]>([])
    var entries: [Entry] { storage.withLock { $0 } }

    func logger() -> Logger {
        var logger = Logger(label: "test") { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.storage.withLock {
                $0.append(Entry(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:]))
            }
        }
    }
}

/// A clean start and stop are logged at info level: what started, and what was torn down, in order.
@Suite("ModuleHostService logs", .timeLimit(.minutes(1)))
struct LifecycleLogTests {
    @Test func aCleanStartAndStopLogWhatStartedAndWhatWasTornDownAtInfoLevel() async throws {
        let recorder = Recorder()
        let capture = LogCapture()
        let manager = try ModuleManager.testing([BaseModule.self, TopModule.self], recorder: recorder)
        _ = try manager.bridge.resolve("test.top")   // loads base, then top
        let service = ModuleHostService(manager: manager, logger: capture.logger())
        try await service.runUntilRunningThenShutDown()
        let info = capture.entries.filter { $0.level == .info }
        #expect(info.map(\.message).first == "modules started", "\(info.map(\.message))")
        let started = try #require(info.first)
        #expect(started.metadata["modules"] == .array([.string("test.base"), .string("test.top")]), "\(started.metadata)")
        #expect(started.metadata["operations"]?.description.contains("base.blocking: succeeded") == true, "\(started.metadata)")
        let tornDown = info.compactMap { $0.metadata["module"]?.description }
        #expect(tornDown == ["test.top", "test.base"])
        #expect(info.last?.message == "modules stopped")
        #expect(info.last?.metadata["modules"] == .array([.string("test.top"), .string("test.base")]))
        #expect(!capture.entries.contains { $0.level >= .warning }, "a clean run logs no warning or error")
    }
}
