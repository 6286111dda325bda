import Foundation
import Testing
@testable import ModuleHost
import TestSupport
import ModuleHostTesting

/// Resolves that race on a module's first load load it exactly once; a resolve from a module's own load works, and
/// modules that require each other, on one thread or two, are an error, not a deadlock.
@Suite("Module resolution: races and cycles")
struct ResolutionRaceAndCycleTests: RegistrySuite {
    @Test func exactlyOnceWhenManyTasksRaceOnFirstResolve() async throws {
        let recorder = LoadRecorder()
        let manager = try manager("SlowModule", recorder: recorder)
        let identities = await withTaskGroup(of: ObjectIdentifier?.self) { group in
            for index in 0..<64 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        return try? manager.bridge.resolve(CounterService.self).identifier
                    }
                    return (try? manager.bridge.resolve(.slow)).map { ObjectIdentifier($0) }
                }
            }
            var collected: [ObjectIdentifier?] = []
            for await identity in group { collected.append(identity) }
            return collected
        }
        #expect(recorder.count(of: "load slow") == 1)
        #expect(identities.count == 64)
        #expect(Set(identities.compactMap { $0 }).count == 1)
        #expect(!identities.contains(nil))
    }

    @Test func exactlyOnceWhenManyThreadsRaceOnFirstResolve() throws {
        let recorder = LoadRecorder()
        let manager = try manager("SlowModule", recorder: recorder)
        let results = LoadRecorder()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let identity = (try? manager.bridge.resolve(CounterService.self).identifier).map { "\($0)" } ?? "failed"
            results.record(identity)
        }
        #expect(recorder.count(of: "load slow") == 1)
        #expect(Set(results.events).count == 1)
        #expect(!results.events.contains("failed"))
    }

    @Test func reentrantResolveFromModuleDidLoad() throws {
        let recorder = LoadRecorder()
        let manager = try manager("BaseModule", "GreeterModule", "ReentrantModule", recorder: recorder)
        _ = try manager.bridge.resolve("test.reentrant")
        #expect(recorder.events == ["load base", "load greeter", "reentrant got: Hello, re-entry!"])
    }

    @Test func resolutionCycleIsAnErrorNotADeadlock() throws {
        let manager = try manager("CycleAModule", "CycleBModule")
        let error = try #require(throws: ResolutionError.self) { try manager.bridge.resolve("test.cycle.a") }
        #expect(error.code == .resolutionCycle)
        #expect(error.cycle == ["test.cycle.a", "test.cycle.b", "test.cycle.a"])
        #expect(error.message.contains("test.cycle.a -> test.cycle.b -> test.cycle.a"))
    }

    @Test func crossThreadResolutionCycleIsDetected() throws {
        let manager = try manager("CrossAModule", "CrossBModule")
        manager.provide(CrossThreadLatch(), as: CrossThreadLatch.self)
        let outcomes = LoadRecorder()
        let done = DispatchGroup()
        for identifier: ModuleIdentifier in ["test.cross.a", "test.cross.b"] {
            done.enter()
            Thread.detachNewThread {
                do {
                    _ = try manager.bridge.resolve(identifier)
                    outcomes.record("ok")
                } catch let error as ResolutionError {
                    outcomes.record(error.code.rawValue)
                } catch {
                    outcomes.record("unexpected \(error)")
                }
                done.leave()
            }
        }
        #expect(done.wait(timeout: .now() + 20) == .success, "the two loads deadlocked")
        #expect(outcomes.events.count == 2)
        #expect(outcomes.events.contains(ResolutionError.Code.resolutionCycle.rawValue))
    }

    @Test func staticRequirementCycleRegisteredInCodeFailsAtLoad() throws {
        let manager = ModuleManager()
        try manager.register(RequiresAModule.self)
        try manager.register(RequiresBModule.self)
        let error = try #require(throws: ResolutionError.self) { try manager.bridge.resolve("test.requires.a") }
        #expect(error.code == .resolutionCycle)
        #expect(error.cycle == ["test.requires.a", "test.requires.b", "test.requires.a"])
    }
}
