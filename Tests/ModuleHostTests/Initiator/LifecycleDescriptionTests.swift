import Testing
@testable import ModuleHost

@Suite("Readable descriptions of events and records")
struct LifecycleDescriptionTests {
    private func record(_ state: StartupReport.OperationRecord.State, module: ModuleIdentifier? = "com.example.db",
                        started: Duration? = .milliseconds(1), finished: Duration? = .microseconds(13_500),
                        error: String? = nil, reason: String? = nil) -> StartupReport.OperationRecord {
        StartupReport.OperationRecord(identifier: "db.open", module: module, phase: .high, dependencies: [], failurePolicy: .required,
                        state: state, readyAt: .milliseconds(1), startedAt: started, finishedAt: finished,
                        error: error, reason: reason)
    }

    @Test func aSucceededRecordNamesOperationModulePhaseAndDuration() {
        #expect(record(.succeeded).description == "operation \"db.open\" of com.example.db (phase high) succeeded in 12.5 ms")
    }

    @Test func aFailedRecordGivesItsError() {
        #expect(record(.failed, error: "disk full").description
            == "operation \"db.open\" of com.example.db (phase high) failed after 12.5 ms: disk full")
        #expect(record(.timedOut, error: "ran longer than 10 ms").description
            == "operation \"db.open\" of com.example.db (phase high) timed out after 12.5 ms: ran longer than 10 ms")
    }

    @Test func aSkippedRecordGivesItsReasonAndNoModuleWhenNone() {
        #expect(record(.skipped, module: nil, started: nil, finished: nil, reason: "\"cache\" failed").description
            == "operation \"db.open\" (phase high) was skipped: \"cache\" failed")
    }

    @Test func eventsReadAsOneLine() {
        #expect(Initiator.Event.phaseStarted(.asyncHigh).description == "phase asyncHigh started")
        #expect(Initiator.Event.operationStarted(identifier: "db.open", phase: .high).description
            == "operation \"db.open\" started (phase high)")
        #expect(Initiator.Event.operationFinished(record(.succeeded)).description == record(.succeeded).description)
        #expect(Initiator.Event.phaseFinished(.low).description == "phase low finished")
    }

    @Test func theFinishedEventSummarisesTheReport() async throws {
        let initiator = Initiator()
        try initiator.add("a", priority: .high) {}
        try initiator.add("b", priority: .high) { throw CancellationError() }
        let report = await initiator.drain()
        let summary = Initiator.Event.finished(report).description
        #expect(summary.hasPrefix("startup finished in "))
        #expect(summary.hasSuffix(": 1 succeeded, 1 failed"))
    }

    @Test func durationsReadInMillisecondsOrSeconds() {
        #expect(DisplayText.duration(.microseconds(12_540)) == "12.5 ms")
        #expect(DisplayText.duration(.zero) == "0.0 ms")
        #expect(DisplayText.duration(.milliseconds(2_350)) == "2.35 s")
        #expect(DisplayText.duration(.milliseconds(5_003)) == "5.00 s")
    }
}
