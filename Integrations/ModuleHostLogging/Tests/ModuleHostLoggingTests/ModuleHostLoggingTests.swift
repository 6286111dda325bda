import Foundation
import InMemoryLogging
import Logging
import ModuleHost
import ModuleHostState
import ModuleHostLogging
import Testing

@Suite("ModuleHostLogging", .timeLimit(.minutes(1)))
struct ModuleHostLoggingTests {
    /// A logger at trace level whose entries the test reads.
    private func logger() -> (Logger, InMemoryLogHandler) {
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        let captured = handler
        return (Logger(label: "test", factory: { _ in captured }), handler)
    }

    /// The events of a startup with one succeeded, one failed (not required) and one skipped operation.
    private func startup(logger: Logger) async throws -> StartupReport {
        let initiator = Initiator()
        try initiator.add("db.open", module: "com.example.db", priority: .asyncHigh) {}
        try initiator.add("cache.fill", module: "com.example.cache", priority: .low, failurePolicy: .optional) {
            throw CancellationError()
        }
        try initiator.add("cache.index", module: "com.example.cache", priority: .low, dependencies: ["cache.fill"],
                          failurePolicy: .optional) {}
        let following = logger.logEvents(of: initiator)
        let report = await initiator.drain()
        await following.value
        return report
    }

    @Test func aFailedOperationIsAnErrorWithItsMetadata() async throws {
        let (logger, handler) = logger()
        _ = try await startup(logger: logger)
        let failed = try #require(handler.entries.first { $0.metadata["state"] == "failed" })
        #expect(failed.level == .error)
        #expect(failed.metadata["operation"] == "cache.fill")
        #expect(failed.metadata["module"] == "com.example.cache")
        #expect(failed.metadata["phase"] == "low")
        #expect(failed.metadata["ran_ms"] != nil)
        #expect(failed.metadata["error"] != nil)
        #expect("\(failed.message)".hasPrefix("operation \"cache.fill\" of com.example.cache (phase low) failed after "))
    }

    @Test func aSkippedOperationIsAWarningWithItsReason() async throws {
        let (logger, handler) = logger()
        _ = try await startup(logger: logger)
        let skipped = try #require(handler.entries.first { $0.metadata["state"] == "skipped" })
        #expect(skipped.level == .warning)
        #expect(skipped.metadata["operation"] == "cache.index")
        #expect(skipped.metadata["reason"] != nil)
    }

    @Test func timingsAreAtDebugAndTheSummaryAtWarningWhenStartupHadProblems() async throws {
        let (logger, handler) = logger()
        let report = try await startup(logger: logger)
        let succeeded = try #require(handler.entries.first { $0.metadata["state"] == "succeeded" })
        #expect(succeeded.level == .debug)
        #expect(succeeded.metadata["ran_ms"] != nil)
        #expect(succeeded.metadata["waited_ms"] != nil)
        let phases = handler.entries.filter { "\($0.message)".hasPrefix("phase ") }
        #expect(!phases.isEmpty && phases.allSatisfy { $0.level == .debug })
        let summary = try #require(handler.entries.last)
        #expect("\(summary.message)" == Initiator.Event.finished(report).description)
        #expect(summary.level == .warning)
        #expect(summary.metadata["failed"] == "1")
        #expect(summary.metadata["wall_ms"] != nil)
    }

    @Test func aSuccessfulStartupEndsWithAnInfoSummary() async throws {
        let (logger, handler) = logger()
        let initiator = Initiator()
        try initiator.add("db.open", priority: .high) {}
        let following = logger.logEvents(of: initiator)
        _ = await initiator.drain()
        await following.value
        let summary = try #require(handler.entries.last)
        #expect(summary.level == .info)
        #expect("\(summary.message)".hasPrefix("startup finished in "))
    }

    @Test func noticesKeepTheirSeverityAndModule() {
        let (logger, handler) = logger()
        logger.log(HostNotice(.warning, module: "com.example.auth", "the stored session was not restored"))
        logger.noticeReporter(HostNotice(.info, module: "com.example.auth", "3 users"))
        #expect(handler.entries.map(\.level) == [.warning, .info])
        #expect(handler.entries.map { "\($0.message)" } == ["the stored session was not restored", "3 users"])
        #expect(handler.entries.allSatisfy { $0.metadata["module"] == "com.example.auth" })
    }

    @Test func aHungTeardownIsAnErrorNamingTheModule() async throws {
        let (logger, handler) = logger()
        let manager = ModuleManager(typeResolver: .types([HangingTeardownModule.self, QuickTeardownModule.self]))
        try manager.registerModules(from: Data(#"{"modules": ["ModuleHostLoggingTests.HangingTeardownModule", "ModuleHostLoggingTests.QuickTeardownModule"]}"#.utf8))
        _ = try manager.bridge.resolve(HangingTeardownModule.moduleIdentifier)
        _ = try manager.bridge.resolve(QuickTeardownModule.moduleIdentifier)
        for record in await manager.unloadAll(teardownTimeLimit: .milliseconds(50)) {
            logger.log(record)
        }
        #expect(handler.entries.map(\.level) == [.debug, .error])
        #expect(handler.entries.map { $0.metadata["module"] } == ["test.quick", "test.hanging"])
        let hung = try #require(handler.entries.last)
        #expect(hung.metadata["outcome"] == "timedOut")
        #expect(hung.metadata["time_limit_ms"] == "50.0")
        let message = "\(hung.message)"
        #expect(message.contains("test.hanging timed out"))
    }
}

final class HangingTeardownModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.hanging"
    init(context: any ModuleContext) {}
    func moduleTearDown() async {
        // Waits for an element that never comes: ends only when its task is cancelled.
        let never = AsyncStream<Never> { _ in }
        for await _ in never {}
    }
}

final class QuickTeardownModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.quick"
    init(context: any ModuleContext) {}
    func moduleTearDown() async {}
}
