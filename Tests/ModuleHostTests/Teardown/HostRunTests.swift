import Foundation
import Testing
@testable import ModuleHost
import ModuleHostTesting

/// One call runs a host: eager modules, startup, ready and idle, the host's work, teardown in
/// reverse order, whatever ends the work.
@Suite("Running a host in one call", .timeLimit(.minutes(1)))
struct HostRunTests {
    private func manager(_ entries: String, probe: TeardownProbe) throws -> ModuleManager {
        let manager = ModuleManager()
        manager.provide(probe, as: TeardownProbe.self)
        try manager.registerModules(from: Data("{\"modules\": [\(entries)]}".utf8))
        return manager
    }

    private static let eagerPair = #""ModuleHostTests.TearBaseModule", {"type": "ModuleHostTests.TearTopModule", "eager": true}, {"type": "ModuleHostTests.TearSyncOnlyModule", "eager": true}"#

    @Test func runStartsRunsTheBodyThenTearsDownInReverseOrder() async throws {
        let probe = TeardownProbe()
        let manager = try manager(Self.eagerPair, probe: probe)
        let teardown = Locked<[ModuleManager.TeardownRecord]>([])
        let answer = try await manager.run(teardownTimeLimit: .seconds(30), onTeardown: { records in teardown.withLock { $0 = records } }) { report in
            #expect(report.isSuccessful)
            #expect(Set(manager.loadedModules().map { type(of: $0).moduleIdentifier }) == [.tearBase, .tearTop, .tearSyncOnly])
            return 42
        }
        #expect(answer == 42)
        #expect(manager.loadedModules().isEmpty)
        // Loaded base, top (eager, requires base), sync-only: torn down in the reverse order.
        #expect(teardown.withLock { $0 }.map(\.module) == [.tearSyncOnly, .tearTop, .tearBase])
        #expect(probe.recorder.events.first == "will unload sync-only")
    }

    @Test func cancellingTheRunEndsTheBodyAndStillTearsDown() async throws {
        let probe = TeardownProbe()
        let manager = try manager(Self.eagerPair, probe: probe)
        let (started, signal) = AsyncStream<Void>.makeStream()
        let run = Task {
            try await manager.run { _ in
                signal.yield()
                try await Task.sleep(for: .seconds(3_600))
            }
        }
        for await _ in started { break }
        run.cancel()
        await #expect(throws: CancellationError.self) { try await run.value }
        #expect(manager.loadedModules().isEmpty)
        #expect(probe.recorder.events.contains("teardown finished base"))
    }

    @Test func aStartupFailureIsThrownAfterTearingDownWhatLoaded() async throws {
        let probe = TeardownProbe()
        let manager = try manager(Self.eagerPair + #", {"type": "ModuleHostTests.FailingModule", "eager": true}"#, probe: probe)
        let ran = Locked(false)
        let error = await #expect(throws: ResolutionError.self) {
            try await manager.run { _ in ran.withLock { $0 = true } }
        }
        #expect(error?.code == .loadFailed)
        #expect(!ran.withLock { $0 }, "the body ran after a startup failure")
        #expect(manager.loadedModules().isEmpty)
        #expect(probe.recorder.events.contains("will unload base"))
    }

    /// app-shell's one-shot commands run this way: the later phases are never released, so their work never starts,
    /// and teardown cancels it.
    @Test func aRunThatStartsNoLaterPhasesNeverRunsThem() async throws {
        let manager = try manager(Self.eagerPair, probe: TeardownProbe())
        let ran = Locked(false)
        try manager.initiator.add("host.later", priority: .low) { ran.withLock { $0 = true } }
        try await manager.run(laterPhases: .never) { report in
            #expect(report.operations.first { $0.identifier == "host.later" }?.state == .pending)
        }
        #expect(!ran.withLock { $0 }, "a later phase ran though the host never released it")
        #expect(manager.initiator.report.operations.first { $0.identifier == "host.later" }?.state == .cancelled)
    }

    /// By default the later phases run while the host works (app-shell's prompt).
    @Test func aRunStartsTheLaterPhasesByDefault() async throws {
        let manager = try manager(Self.eagerPair, probe: TeardownProbe())
        let ran = Locked(false)
        try manager.initiator.add("host.later", priority: .low) { ran.withLock { $0 = true } }
        try await manager.run { _ in
            _ = await manager.initiator.drain()
        }
        #expect(ran.withLock { $0 })
    }
}
