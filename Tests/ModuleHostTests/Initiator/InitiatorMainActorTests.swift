import Dispatch
import Foundation
import Testing
@testable import ModuleHost
import protocol ModuleHostSeed.ModuleInitiatorProtocol

/// Tells whether code is running on the main dispatch queue, the main actor's executor.
///
/// `Thread.isMainThread` is not used: on Linux the thread draining the main queue under `swift test` need not
/// be the process's first thread. Tagging the main queue is idempotent (always the same key and value), so
/// tests running in parallel may each do it.
enum MainQueueProbe {
    static let key = DispatchSpecificKey<Int>()

    /// Tags the main queue so `isOnMainQueue` can recognise it.
    static func tagMainQueue() { DispatchQueue.main.setSpecific(key: key, value: 1) }

    /// Whether the caller runs on the (tagged) main queue.
    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: key) == 1 }

    /// Throws unless the caller runs on the main queue.
    static func requireMainQueue(_ what: String) throws {
        guard isOnMainQueue else { throw TestFailure("\(what) did not run on the main queue") }
    }

    /// Throws if the caller runs on the main queue.
    static func requireOffMainQueue(_ what: String) throws {
        guard !isOnMainQueue else { throw TestFailure("\(what) ran on the main queue") }
    }

    /// A `@concurrent` callee: wherever it is awaited from, it runs on the global executor.
    @concurrent static func isOnMainQueueInConcurrentCallee() async -> Bool { isOnMainQueue }
}

/// Declares its startup operations through the seed's `ModuleInitiatorProtocol`: one plain, synchronous
/// `.high` closure that fails unless it runs on the main queue.
final class MainQueueSeedModule: ModuleProtocol, ModuleInitiatorProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.main-queue.seed"
    static var identifier: String { "test.main-queue.seed.high" }
    static var priority: ModuleStartupOperation.Priority { .high }
    static var failurePolicy: ModuleStartupOperation.FailurePolicy? { .optional }
    static var operation: StartupOperationBody { { try MainQueueProbe.requireMainQueue("the seed's .high operation") } }
    init(context: any ModuleContext) {}
}

/// Declares its startup operations through `ModuleProtocol`: a plain async `.high` closure that
/// fails unless it runs on the main queue, and an `.asyncHigh` one that fails if it does.
final class MainQueueProviderModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.main-queue.provider"
    static var contributions: [Contribution] { startupOperations.map(Contribution.startupOperation) }
    static let startupOperations: [ModuleStartupOperation] = [
        ModuleStartupOperation("test.main-queue.provider.high", priority: .high, failurePolicy: .optional) { _ in
            try MainQueueProbe.requireMainQueue("the provider's .high operation")
            await Task.yield()
            try MainQueueProbe.requireMainQueue("the provider's .high operation, after an await")
        },
        ModuleStartupOperation("test.main-queue.provider.async-high", priority: .asyncHigh, failurePolicy: .optional) { _ in
            try MainQueueProbe.requireOffMainQueue("the provider's .asyncHigh operation")
        },
    ]
    init(context: any ModuleContext) {}
}

@Suite("Initiator: the main actor")
struct InitiatorMainActorTests {
    @Test func plainSynchronousHighClosureRunsOnTheMainQueue() async throws {
        MainQueueProbe.tagMainQueue()
        let onMain = Box<Bool?>(nil)
        let initiator = Initiator()
        try initiator.add("plain", priority: .high) {
            onMain.set(MainQueueProbe.isOnMainQueue)
        }
        try await initiator.start()
        #expect(onMain.value == true)
    }

    @Test func plainAsyncHighClosureIsOnTheMainQueueAcrossAwaits() async throws {
        MainQueueProbe.tagMainQueue()
        let seen = Box<[String: Bool]>([:])
        let initiator = Initiator()
        try initiator.add("plain-async", priority: .high) {
            seen.update { $0["at the start"] = MainQueueProbe.isOnMainQueue }
            await Task.yield()
            seen.update { $0["after yield"] = MainQueueProbe.isOnMainQueue }
            // A @concurrent callee runs elsewhere, as anywhere in Swift; the body comes back afterwards.
            let calleeOnMain = await MainQueueProbe.isOnMainQueueInConcurrentCallee()
            seen.update { $0["callee"] = calleeOnMain }
            seen.update { $0["after callee"] = MainQueueProbe.isOnMainQueue }
            await Task.yield()
            seen.update { $0["at the end"] = MainQueueProbe.isOnMainQueue }
        }
        try await initiator.start()
        #expect(seen.value == ["at the start": true, "after yield": true, "callee": false, "after callee": true,
                               "at the end": true])
    }

    @Test func startupOperationValueAtHighRunsOnTheMainQueue() async throws {
        MainQueueProbe.tagMainQueue()
        let onMain = Box<Bool?>(nil)
        let initiator = Initiator()
        try initiator.add(StartupOperation("value", priority: .high, body: {
            onMain.set(MainQueueProbe.isOnMainQueue)
        }))
        try await initiator.start()
        #expect(onMain.value == true)
    }

    @Test func seedModuleHighOperationRunsOnTheMainQueue() async throws {
        MainQueueProbe.tagMainQueue()
        let manager = ModuleManager()
        try manager.register(MainQueueSeedModule.self)
        let report = try await manager.initiator.start()
        let record = try #require(report.record(MainQueueSeedModule.identifier))
        #expect(record.state == .succeeded, "\(record.message ?? "")")
        #expect(record.phase == .high)
        #expect(record.module == MainQueueSeedModule.moduleIdentifier)
    }

    @Test func providerModuleOperationsRunOnTheMainQueueOnlyAtHigh() async throws {
        MainQueueProbe.tagMainQueue()
        let manager = ModuleManager()
        try manager.register(MainQueueProviderModule.self)
        let report = try await manager.initiator.start()
        for (identifier, phase) in [("test.main-queue.provider.high", ModuleStartupOperation.Priority.high),
                                    ("test.main-queue.provider.async-high", .asyncHigh)] {
            let record = try #require(report.record(identifier))
            #expect(record.state == .succeeded, "\(identifier): \(record.message ?? "")")
            #expect(record.phase == phase)
        }
    }

    @Test func moduleOperationsStillHoldTheirManagerWeakly() async throws {
        // The wrapper that hands a body its manager captures it through a `weak let`, not a capture list.
        var manager: ModuleManager? = ModuleManager()
        try manager?.register(MainQueueSeedModule.self)
        let operations = manager?.startupOperations() ?? []
        weak let released = manager
        manager = nil
        #expect(released == nil)

        let initiator = Initiator()
        for operation in operations { try initiator.add(operation) }
        let report = try await initiator.start()
        let record = try #require(report.record(MainQueueSeedModule.identifier))
        #expect(record.state == .failed)
        #expect(record.message?.contains("no longer exists") == true)
    }

    @Test func plainClosuresInConcurrentPhasesAreNotOnTheMainQueue() async throws {
        MainQueueProbe.tagMainQueue()
        let concurrentPhases: [ModuleStartupOperation.Priority] = [.asyncHigh, .afterFirstFrame, .low, .idle]
        let onMain = Box<[ModuleStartupOperation.Priority: Bool]>([:])
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("high", priority: .high) {
            onMain.update { $0[.high] = MainQueueProbe.isOnMainQueue }
        }
        for phase in concurrentPhases {
            try initiator.add(phase.rawValue, priority: phase) {
                onMain.update { $0[phase] = MainQueueProbe.isOnMainQueue }
            }
        }
        let report = await initiator.drain()
        #expect(report.isComplete && report.isSuccessful)
        #expect(onMain.value[.high] == true)
        for phase in concurrentPhases {
            #expect(onMain.value[phase] == false, "\(phase)")
        }
    }
}
