import Foundation
import Logging
import ModuleHost
import ModuleHostServiceLifecycle
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing

@Suite("ModuleHostService", .timeLimit(.minutes(1)))
struct ModuleHostServiceTests {
    @Test func blockingPhasesFinishBeforeRunningAndLaterPhasesRunAfter() async throws {
        let recorder = Recorder()
        let manager = try ModuleManager.testing([BaseModule.self, TopModule.self], recorder: recorder)
        let service = ModuleHostService(manager: manager)
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                let report = try await service.waitUntilRunning()
                #expect(report.operations.first { $0.identifier == "base.blocking" }?.state == .succeeded)
                #expect(report.operations.first { $0.identifier == "base.later" }?.state == .pending, "the later phase had not run when the service was running")
                var later = recorder.laterPhaseRan.makeAsyncIterator()
                _ = await later.next()
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
        #expect(recorder.events.prefix(1) == ["blocking operation"])
        #expect(recorder.events.contains("later operation"))
    }

    @Test func gracefulShutdownUnloadsInReverseOrderAwaitingEachTeardown() async throws {
        let recorder = Recorder()
        let manager = try ModuleManager.testing([BaseModule.self, TopModule.self], recorder: recorder)
        _ = try manager.bridge.resolve("test.top")   // loads base, then top
        let service = ModuleHostService(manager: manager)
        try await service.runUntilRunningThenShutDown()
        let teardown = recorder.events.filter { $0.hasPrefix("teardown") }
        #expect(teardown == ["teardown began top", "teardown finished top", "teardown began base", "teardown finished base"])
        #expect(service.teardownRecords.map(\.module) == ["test.top", "test.base"])
        #expect(service.teardownRecords.allSatisfy { $0.outcome == .finished })
        #expect(!manager.modules.contains { $0.state == .loaded })
    }

    @Test func cancellationAlsoUnloads() async throws {
        let recorder = Recorder()
        let manager = try ModuleManager.testing([BaseModule.self], recorder: recorder)
        _ = try manager.bridge.resolve("test.base")
        let service = ModuleHostService(manager: manager)
        let running = Task { try await service.run() }
        try await service.waitUntilRunning()
        running.cancel()
        try await running.value
        // (The later phase may still be running: cancelled operations are not waited for.)
        #expect(recorder.events.filter { $0.hasPrefix("teardown") } == ["teardown began base", "teardown finished base"])
    }

    @Test func aHangingTeardownIsReportedAndShutdownStillEnds() async throws {
        let recorder = Recorder()
        let manager = try ModuleManager.testing([BaseModule.self, HangingModule.self], recorder: recorder)
        _ = try manager.bridge.resolve("test.base")
        _ = try manager.bridge.resolve("test.hanging")
        let service = ModuleHostService(manager: manager, teardownTimeLimit: .milliseconds(100))
        try await service.runUntilRunningThenShutDown()
        #expect(service.teardownRecords.map(\.module) == ["test.hanging", "test.base"])
        #expect(service.teardownRecords.map(\.outcome) == [.timedOut, .finished])
        #expect(service.teardownRecords.first?.description.contains("test.hanging") == true)
    }

    @Test func aModuleFailingAtStartupFailsTheServiceWithAnErrorNamingIt() async throws {
        let recorder = Recorder()
        let manager = try ModuleManager.testing([BaseModule.self, FailingStartupModule.self], recorder: recorder)
        let service = ModuleHostService(manager: manager)
        let error = await #expect(throws: ModuleHostServiceError.self) {
            try await testGracefulShutdown { _ in try await service.run() }
        }
        #expect(error?.code == .startupOperationFailed)
        #expect(error?.module == "test.failing-startup")
        #expect(error?.operation == "failing.open")
        #expect(error?.description.contains("the disk is full") == true)
        await #expect(throws: ModuleHostServiceError.self) { try await service.waitUntilRunning() }
    }

    @Test func anEagerModuleFailingToLoadFailsTheServiceWithAnErrorNamingIt() async throws {
        let recorder = Recorder()
        let manager = try ModuleManager.testing([FailingLoadModule.self], eager: [String(reflecting: FailingLoadModule.self)],
                                                recorder: recorder)
        let service = ModuleHostService(manager: manager)
        let error = await #expect(throws: ModuleHostServiceError.self) { try await service.run() }
        #expect(error?.code == .moduleFailedToLoad)
        #expect(error?.module == "test.failing-load")
        #expect(error?.description.contains("no configuration") == true)
    }

    /// Waiters hear of an eager module's failure before what loaded is unloaded: here a teardown that ends only
    /// when the test lets it is still pending when `waitUntilRunning()` throws (an outsider found the failure was
    /// told only after every teardown).
    @Test(.timeLimit(.minutes(1))) func waitersHearOfAFailureBeforeTheTeardowns() async throws {
        let recorder = Recorder()
        let manager = try ModuleManager.testing([GatedTeardownModule.self, FailingLoadModule.self],
                                                eager: [String(reflecting: GatedTeardownModule.self), String(reflecting: FailingLoadModule.self)],
                                                recorder: recorder)
        let service = ModuleHostService(manager: manager, teardownTimeLimit: .seconds(600))
        let run = Task { try await service.run() }
        let error = await #expect(throws: ModuleHostServiceError.self) { try await service.waitUntilRunning() }
        #expect(error?.module == "test.failing-load")
        #expect(service.teardownRecords.isEmpty, "the gated teardown has not ended, so no record is kept yet")
        recorder.openTeardownGate()
        await #expect(throws: ModuleHostServiceError.self) { try await run.value }
        #expect(service.teardownRecords.map(\.module) == ["test.gated-teardown"])
    }

    @Test func runsInAServiceGroupAndShutsDownThroughIt() async throws {
        let recorder = Recorder()
        let manager = try ModuleManager.testing([BaseModule.self, TopModule.self], recorder: recorder)
        _ = try manager.bridge.resolve("test.top")
        let service = ModuleHostService(manager: manager)
        let group = ServiceGroup(configuration: .init(services: [service], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await service.waitUntilRunning()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(service.teardownRecords.map(\.module) == ["test.top", "test.base"])
    }
}
