import ModuleHostServiceLifecycle
import ServiceLifecycleTestKit

extension ModuleHostService {
    /// Runs the service until it is running (its blocking phases done), then shuts it down gracefully, as a
    /// service group would on SIGTERM, and waits for the run to end.
    func runUntilRunningThenShutDown() async throws {
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.run() }
                try await self.waitUntilRunning()
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }
}
