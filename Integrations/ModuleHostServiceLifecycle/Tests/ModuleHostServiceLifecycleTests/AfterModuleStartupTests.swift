import Logging
import ModuleHost
import ModuleHostServiceLifecycle
import ServiceLifecycle
import Testing

/// Records when it runs, then runs until graceful shutdown.
private struct MarkerService: Service {
    let recorder: Recorder
    func run() async throws {
        recorder.record("marker ran")
        try? await gracefulShutdown()
        recorder.record("marker stopped")
    }
}

@Suite("AfterModuleStartup", .timeLimit(.minutes(1)))
struct AfterModuleStartupTests {
    private func group(_ services: [any Service]) -> ServiceGroup {
        ServiceGroup(configuration: .init(services: services, logger: Logger(label: "test")))
    }

    @Test func theServiceRunsAfterTheBlockingPhasesAndStopsBeforeTheModulesUnload() async throws {
        let recorder = Recorder()
        let manager = try ModuleManager.testing([BaseModule.self], recorder: recorder)
        _ = try manager.bridge.resolve("test.base")
        let modules = ModuleHostService(manager: manager)
        let group = group([modules, AfterModuleStartup(modules, run: MarkerService(recorder: recorder))])
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await modules.waitUntilRunning()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        let events = recorder.events.filter { !$0.hasPrefix("later") }
        #expect(events.first == "blocking operation")
        #expect(events.contains("marker ran"))
        let stopped = try #require(events.firstIndex(of: "marker stopped"))
        let teardown = try #require(events.firstIndex(of: "teardown began base"))
        #expect(stopped < teardown, "the dependent service stopped before the modules unloaded")
    }

    @Test func whenStartupFailsTheServiceNeverRunsAndTheGroupFailsNamingTheModule() async throws {
        let recorder = Recorder()
        let manager = try ModuleManager.testing([FailingStartupModule.self], recorder: recorder)
        let modules = ModuleHostService(manager: manager)
        let group = group([modules, AfterModuleStartup(modules, run: MarkerService(recorder: recorder))])
        let error = await #expect(throws: ModuleHostServiceError.self) { try await group.run() }
        #expect(error?.module == "test.failing-startup")
        #expect(!recorder.events.contains("marker ran"))
    }

    @Test func aGracefulShutdownDuringStartupEndsTheGroupWithoutAnError() async throws {
        let recorder = Recorder()
        let manager = try ModuleManager.testing([GatedStartupModule.self], recorder: recorder)
        let modules = ModuleHostService(manager: manager)
        let group = group([modules, AfterModuleStartup(modules, run: MarkerService(recorder: recorder))])
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var started = recorder.gatedStarted.makeAsyncIterator()
            _ = await started.next()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(!recorder.events.contains("marker ran"))
        await #expect(throws: ModuleHostServiceError.self) { try await modules.waitUntilRunning() }
    }

    @Test func aCancelledWaitStopsWaiting() async throws {
        let recorder = Recorder()
        let manager = try ModuleManager.testing([GatedStartupModule.self], recorder: recorder)
        let modules = ModuleHostService(manager: manager)
        let waiting = Task { try await modules.waitUntilRunning() }
        waiting.cancel()
        let result = await waiting.result
        #expect(throws: ModuleHostServiceError.self) { try result.get() }
    }
}
