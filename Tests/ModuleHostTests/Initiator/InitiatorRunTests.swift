import Dispatch
import Foundation
import Testing
@testable import ModuleHost

@Suite("Initiator: running")
struct InitiatorRunTests {
    @Test func seedGraphRunsDependenciesFirst() async throws {
        let recorder = Recorder()
        let initiator = Initiator(maxConcurrentOperations: 4)
        try initiator.add("1", priority: .asyncHigh, dependencies: ["2", "3"], operation: recorder.body("1"))
        try initiator.add("2", priority: .asyncHigh, dependencies: ["4"], operation: recorder.body("2"))
        try initiator.add("3", priority: .asyncHigh, dependencies: ["4"], operation: recorder.body("3"))
        try initiator.add("4", priority: .asyncHigh, operation: recorder.body("4"))
        let report = try await initiator.start()
        #expect(recorder.startOrder.first == "4")
        #expect(recorder.startOrder.last == "1")
        #expect(recorder.finished("4", before: "2"))
        #expect(recorder.finished("4", before: "3"))
        #expect(recorder.finished("2", before: "1"))
        #expect(recorder.finished("3", before: "1"))
        #expect(report.isSuccessful)
        #expect(report.totals.count(.succeeded) == 4)
    }

    @Test func highPhaseIsSerialInRegistrationOrder() async throws {
        let recorder = Recorder()
        let initiator = Initiator(maxConcurrentOperations: 4)
        try initiator.add("c", priority: .high, operation: recorder.body("c"))
        try initiator.add("a", priority: .high, dependencies: ["b"], operation: recorder.body("a"))
        try initiator.add("b", priority: .high, operation: recorder.body("b"))
        try initiator.add("d", priority: .high, operation: recorder.body("d"))
        try await initiator.start()
        #expect(recorder.startOrder == ["c", "b", "a", "d"])
        for (first, second) in [("c", "b"), ("b", "a"), ("a", "d")] {
            #expect(recorder.finished(first, before: second))
        }
    }

    @Test func moduleOperationsComeBeforeCodeOperations() async throws {
        let recorder = Recorder()
        let source: @Sendable () throws -> [StartupOperation] = {
            [StartupOperation("fromModule", module: "com.example.auth", priority: .high, body: recorder.body("fromModule"))]
        }
        let initiator = Initiator(maxConcurrentOperations: 2, operationSource: source)
        try initiator.add("fromCode", priority: .high, operation: recorder.body("fromCode"))
        let report = try await initiator.start()
        #expect(recorder.startOrder == ["fromModule", "fromCode"])
        #expect(initiator.plan?.order == ["fromModule", "fromCode"])
        #expect(report.record("fromModule")?.module == "com.example.auth")
    }

    @Test func highOperationsAreInvokedFromTheMainActor() async throws {
        // The main actor's executor is the main dispatch queue; tag it with a key unique to this test
        // (Thread.isMainThread is not reliable under `swift test` on Linux).
        let key = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        let onMain = Box(false)
        let initiator = Initiator()
        try initiator.add("ui", priority: .high) { @MainActor in
            onMain.set(DispatchQueue.getSpecific(key: key) == 1)
        }
        try await initiator.start()
        #expect(onMain.value)
    }

    @Test func phasesRunInOrderAndWaitForHostSignals() async throws {
        let recorder = Recorder()
        let initiator = Initiator(maxConcurrentOperations: 2)
        for phase in ModuleStartupOperation.Priority.allCases.reversed() {
            try initiator.add(phase.rawValue, priority: phase, operation: recorder.body(phase.rawValue))
        }
        let events = initiator.events
        let report = try await initiator.start()
        #expect(recorder.startOrder == ["high", "asyncHigh"])
        #expect(report.state("afterFirstFrame") == .pending)
        #expect(report.state("idle") == .pending)

        initiator.hostDidBecomeReady()
        var seen: [String] = []
        for await event in events {
            if case .operationFinished(let record) = event { seen.append(record.identifier) }
            if case .phaseFinished(.low) = event { break }
        }
        #expect(seen == ["high", "asyncHigh", "afterFirstFrame", "low"])
        #expect(recorder.startOrder == ["high", "asyncHigh", "afterFirstFrame", "low"])
        #expect(initiator.report.state("idle") == .pending)

        initiator.hostDidBecomeIdle()
        let final = await initiator.waitUntilFinished()
        #expect(recorder.startOrder == ["high", "asyncHigh", "afterFirstFrame", "low", "idle"])
        let order = recorder.startOrder
        for (first, second) in zip(order, order.dropFirst()) {
            #expect(recorder.finished(first, before: second))
        }
        #expect(final.isComplete)
        #expect(final.totals.count(.succeeded) == 5)
        #expect(final.phases.allSatisfy { $0.wallTime != nil })
    }

    @Test func drainRunsEverythingThatRemains() async throws {
        let recorder = Recorder()
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("later", priority: .idle, operation: recorder.body("later"))
        try initiator.add("first", priority: .afterFirstFrame, operation: recorder.body("first"))
        let report = await initiator.drain()
        #expect(recorder.startOrder == ["first", "later"])
        #expect(report.isComplete && report.isSuccessful)
    }

    @Test func startingTwiceThrowsAlreadyStarted() async throws {
        let runs = Box(0)
        let initiator = Initiator()
        try initiator.add("once", priority: .high) { runs.update { $0 += 1 } }
        try await initiator.start()
        await #expect {
            try await initiator.start()
        } throws: { error in
            (error as? InitiatorError)?.code == .alreadyStarted
        }
        #expect(runs.value == 1)
    }

    @Test func addingAfterStartThrows() async throws {
        let initiator = Initiator()
        try await initiator.start()
        #expect {
            try initiator.add("late", priority: .low) {}
        } throws: { error in
            (error as? InitiatorError)?.code == .addedAfterStart
        }
    }

    @Test func invalidPlanRunsNothing() async throws {
        let runs = Box(0)
        let initiator = Initiator()
        try initiator.add("a", priority: .high, dependencies: ["missing"]) { runs.update { $0 += 1 } }
        try initiator.add("b", priority: .asyncHigh) { runs.update { $0 += 1 } }
        try initiator.add("b", priority: .low) { runs.update { $0 += 1 } }
        await #expect {
            try await initiator.start()
        } throws: { error in
            (error as? InitiatorError)?.problemCodes == [.duplicateIdentifier, .unknownDependency]
        }
        #expect(runs.value == 0)
        let report = await initiator.waitUntilFinished()
        #expect(report.totals.count(.skipped) == 3)
        #expect(report.operations.allSatisfy { $0.reason?.contains("invalid") == true })
    }
}
