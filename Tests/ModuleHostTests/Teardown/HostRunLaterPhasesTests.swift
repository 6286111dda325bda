import Foundation
import Testing
@testable import ModuleHost
import ModuleHostTesting

/// `run`'s policy for the later startup phases, and what cancelling the run does: the two lifecycle jobs app-shell
/// used to do by hand (a grace period for the later phases, and waiting for every phase before its work).
@Suite("Running a host: the later phases", .timeLimit(.minutes(1)))
struct HostRunLaterPhasesTests {
    private func manager() throws -> ModuleManager {
        let manager = ModuleManager()
        manager.provide(TeardownProbe(), as: TeardownProbe.self)
        try manager.registerModules(from: Data(#"{"modules": [{"type": "ModuleHostTests.TearBaseModule", "eager": true}]}"#.utf8))
        return manager
    }

    private func state(_ identifier: String, in report: StartupReport) -> StartupReport.OperationRecord.State? {
        report.operations.first { $0.identifier == identifier }?.state
    }

    /// `.beforeWork`: every phase has run when the work starts, and the work gets their report.
    @Test func beforeWorkRunsEveryPhaseFirst() async throws {
        let manager = try manager()
        try manager.initiator.add("host.idle", priority: .idle) {}
        let seen = try await manager.run(laterPhases: .beforeWork) { report in self.state("host.idle", in: report) }
        #expect(seen == .succeeded)
    }

    /// `.whileWorking(gracePeriod:)`: a later operation still running when the work returns is waited for, up to
    /// the grace period, and finishes.
    @Test func theGracePeriodLetsALaterOperationFinish() async throws {
        let manager = try manager()
        let release = Signal()
        try manager.initiator.add("host.low", priority: .low) { _ = await release.waited(seconds: 30) }
        try await manager.run(laterPhases: .whileWorking(gracePeriod: .seconds(60))) { _ in release.fire() }
        #expect(state("host.low", in: manager.initiator.report) == .succeeded)
    }

    /// Past the grace period, what is left is cancelled, and the run ends.
    @Test func pastTheGracePeriodALaterOperationIsCancelled() async throws {
        let manager = try manager()
        try manager.initiator.add("host.low", priority: .low) { try await Task.sleep(for: .seconds(600)) }
        try await manager.run(laterPhases: .whileWorking(gracePeriod: .milliseconds(1))) { _ in }
        #expect(state("host.low", in: manager.initiator.report) == .cancelled)
    }

    /// Cancelling the task that runs the host cancels startup at once, with no grace period, and still tears down
    /// every module.
    @Test func cancellingTheRunCancelsTheLaterPhasesAndTearsDown() async throws {
        let manager = try manager()
        let started = Signal()
        try manager.initiator.add("host.low", priority: .low) {
            started.fire()
            try await Task.sleep(for: .seconds(600))
        }
        let run = Task {
            try await manager.run(laterPhases: .whileWorking(gracePeriod: .seconds(600))) { _ in
                try await Task.sleep(for: .seconds(600))   // the host's work, until the task is cancelled
            }
        }
        #expect(await started.waited(seconds: 30))
        run.cancel()
        await #expect(throws: CancellationError.self) { try await run.value }
        #expect(state("host.low", in: manager.initiator.report) == .cancelled)
        #expect(manager.loadedModules().isEmpty)
    }
}
