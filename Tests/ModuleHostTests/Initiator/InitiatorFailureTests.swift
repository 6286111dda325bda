import Foundation
import Testing
@testable import ModuleHost

@Suite("Initiator: failures, timeouts and cancellation")
struct InitiatorFailureTests {
    @Test func failureSkipsTransitiveDependentsButNotIndependents() async throws {
        let recorder = Recorder()
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("broken", priority: .asyncHigh, failurePolicy: .optional,
                          operation: recorder.body("broken") { throw TestFailure("disk full") })
        try initiator.add("child", priority: .asyncHigh, dependencies: ["broken"], failurePolicy: .optional,
                          operation: recorder.body("child"))
        try initiator.add("grandchild", priority: .low, dependencies: ["child"], operation: recorder.body("grandchild"))
        try initiator.add("independent", priority: .asyncHigh, operation: recorder.body("independent"))
        try await initiator.start()
        let report = await initiator.drain()

        #expect(report.state("broken") == .failed)
        #expect(report.record("broken")?.error == "disk full")
        #expect(report.state("child") == .skipped)
        #expect(report.record("child")?.reason == "dependency \"broken\" failed")
        #expect(report.state("grandchild") == .skipped)
        #expect(report.record("grandchild")?.reason?.contains("\"broken\"") == true)
        #expect(report.state("independent") == .succeeded)
        #expect(Set(recorder.startOrder) == ["broken", "independent"])
        #expect(report.isSuccessful)  // every failure was optional
    }

    @Test func requiredFailureStopsLaterPhasesAndThrowsWithReport() async throws {
        let recorder = Recorder()
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("database", priority: .high, operation: recorder.body("database") { throw TestFailure("no db") })
        try initiator.add("config", priority: .high, operation: recorder.body("config"))
        try initiator.add("cache", priority: .asyncHigh, operation: recorder.body("cache"))
        try initiator.add("banner", priority: .afterFirstFrame, operation: recorder.body("banner"))

        let error = await #expect(throws: InitiatorError.self) { try await initiator.start() }
        #expect(error?.code == .requiredOperationFailed)
        #expect(error?.message.contains("\"database\"") == true)
        let report = try #require(error?.report)
        #expect(report.state("database") == .failed)
        #expect(report.state("config") == .succeeded)  // the rest of the phase settles
        #expect(report.state("cache") == .skipped)
        #expect(report.record("cache")?.reason?.contains("\"database\"") == true)
        #expect(report.state("banner") == .skipped)
        #expect(!report.isSuccessful)
        #expect(recorder.startOrder == ["database", "config"])
        let final = await initiator.drain()
        #expect(final.isComplete)
        #expect(recorder.startOrder == ["database", "config"])
    }

    @Test func optionalFailureInBlockingPhaseDoesNotStopStartup() async throws {
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("flaky", priority: .high, failurePolicy: .optional) { throw TestFailure("meh") }
        try initiator.add("next", priority: .asyncHigh) {}
        let report = try await initiator.start()
        #expect(report.state("flaky") == .failed)
        #expect(report.state("next") == .succeeded)
        #expect(report.isSuccessful)
    }

    @Test func requiredOperationSkippedBecauseOfOptionalFailureStopsStartup() async throws {
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("flaky", priority: .asyncHigh, failurePolicy: .optional) { throw TestFailure("meh") }
        try initiator.add("needsFlaky", priority: .asyncHigh, dependencies: ["flaky"]) {}
        try initiator.add("later", priority: .low) {}
        let error = await #expect(throws: InitiatorError.self) { try await initiator.start() }
        #expect(error?.code == .requiredOperationFailed)
        #expect(error?.report?.state("needsFlaky") == .skipped)
        #expect(error?.report?.state("later") == .skipped)
    }

    @Test func defaultPolicyDependsOnPhase() {
        #expect(StartupOperation("a", priority: .high) {}.effectiveFailurePolicy == .required)
        #expect(StartupOperation("a", priority: .asyncHigh) {}.effectiveFailurePolicy == .required)
        #expect(StartupOperation("a", priority: .afterFirstFrame) {}.effectiveFailurePolicy == .optional)
        #expect(StartupOperation("a", priority: .low) {}.effectiveFailurePolicy == .optional)
        #expect(StartupOperation("a", priority: .idle, failurePolicy: .required) {}.effectiveFailurePolicy == .required)
    }

    @Test func timeoutMarksOperationTimedOutAndSkipsDependents() async throws {
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("sleepy", priority: .asyncHigh, failurePolicy: .optional, timeout: .milliseconds(50)) {
            try await Task.sleep(for: .seconds(60))
        }
        try initiator.add("after", priority: .asyncHigh, dependencies: ["sleepy"], failurePolicy: .optional) {}
        let report = try await initiator.start()
        #expect(report.state("sleepy") == .timedOut)
        #expect(report.record("sleepy")?.error?.contains("timed out") == true)
        #expect(report.state("after") == .skipped)
        #expect(report.record("after")?.reason == "dependency \"sleepy\" timed out")
    }

    @Test func operationIgnoringCancellationDoesNotBlockStartup() async throws {
        let release = Latch()
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("stubborn", priority: .high, failurePolicy: .optional, timeout: .milliseconds(50)) {
            await release.waitIgnoringCancellation()
        }
        try initiator.add("next", priority: .asyncHigh) {}
        let report = try await initiator.start()
        #expect(report.state("stubborn") == .timedOut)
        #expect(report.state("next") == .succeeded)
        #expect(!release.isOpen)  // the body is still running: startup did not wait for it
        release.open()
    }

    @Test func requiredTimeoutStopsStartup() async throws {
        let initiator = Initiator()
        try initiator.add("sleepy", priority: .high, timeout: .milliseconds(20)) {
            try await Task.sleep(for: .seconds(60))
        }
        let error = await #expect(throws: InitiatorError.self) { try await initiator.start() }
        #expect(error?.code == .requiredOperationFailed)
        #expect(error?.report?.state("sleepy") == .timedOut)
    }

    @Test func cancellingStartCancelsRunningAndPendingOperations() async throws {
        let started = Latch()
        let release = Latch()
        let initiator = try Initiator.slowWithFollowers(started: started, release: release)
        let task = Task { try await initiator.start() }
        try await started.wait()
        task.cancel()
        let result = await task.result
        release.open()

        let error = try #require(result.failure as? InitiatorError)
        #expect(error.code == .cancelled)
        let report = try #require(error.report)
        #expect(report.wasCancelled)
        #expect(report.state("slow") == .cancelled)
        #expect(report.state("afterSlow") == .cancelled)
        #expect(report.state("later") == .cancelled)
        #expect(!report.isSuccessful)
        let final = await initiator.waitUntilFinished()
        #expect(final.isComplete)
    }

    @Test func cancellingDrainCancelsLaterPhases() async throws {
        let started = Latch()
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("boot", priority: .high) {}
        try initiator.add("prefetch", priority: .low) {
            started.open()
            try await Task.sleep(for: .seconds(60))
        }
        try initiator.add("cleanup", priority: .idle) {}
        try await initiator.start()
        let task = Task { await initiator.drain() }
        try await started.wait()
        task.cancel()
        let report = await task.value
        #expect(report.state("boot") == .succeeded)
        #expect(report.state("prefetch") == .cancelled)
        #expect(report.state("cleanup") == .cancelled)
        #expect(report.wasCancelled)
        #expect(report.isComplete)
    }

    @Test func cancelledBeforeStartRunsNothing() async throws {
        let runs = Box(0)
        let initiator = Initiator()
        try initiator.add("a", priority: .high) { runs.update { $0 += 1 } }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await initiator.start()
        }
        let result = await task.result
        #expect((result.failure as? InitiatorError)?.code == .cancelled)
        #expect(runs.value == 0)
        #expect(initiator.report.state("a") == .cancelled)
    }

    @Test func operationSourceFailureIsReported() async throws {
        let initiator = Initiator(maxConcurrentOperations: 1) { throw TestFailure("bad manifest") }
        try initiator.add("a", priority: .high) {}
        let error = await #expect(throws: InitiatorError.self) { try await initiator.start() }
        #expect(error?.code == .operationSourceFailed)
        #expect(error?.message.contains("bad manifest") == true)
    }
}

extension Result {
    /// The failure, if any.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
