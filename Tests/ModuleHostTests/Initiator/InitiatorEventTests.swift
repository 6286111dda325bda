import Testing
@testable import ModuleHost

/// The operation events of a finished stream, one line each: "started id" or "id: state".
private func operationLines(_ events: AsyncStream<Initiator.Event>) async -> [String] {
    var lines: [String] = []
    for await event in events {
        switch event {
        case .operationStarted(let identifier, _): lines.append("started \(identifier)")
        case .operationFinished(let record): lines.append("\(record.identifier): \(record.state.rawValue)")
        case .phaseStarted, .phaseFinished, .finished: break
        }
    }
    return lines
}

@Suite("Initiator: events")
struct InitiatorEventTests {
    @Test func aFailureReportsItsTransitivelySkippedDependentsInOrder() async throws {
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("a", priority: .high) {}
        try initiator.add("b", priority: .high, failurePolicy: .optional) { throw TestFailure("no") }
        try initiator.add("c", priority: .high, dependencies: ["b"], failurePolicy: .optional) {}
        try initiator.add("d", priority: .low, dependencies: ["c"]) {}
        try initiator.add("e", priority: .low, dependencies: ["a"]) {}
        let events = initiator.events
        let report = await initiator.drain()
        #expect(await operationLines(events) == [
            "started a", "a: succeeded", "started b", "b: failed", "c: skipped", "d: skipped",
            "started e", "e: succeeded",
        ])
        #expect(report.record("c")?.reason == "dependency \"b\" failed")
        #expect(report.record("d")?.reason == "dependency \"c\" was skipped because \"b\" failed")
        #expect(report.operations.map(\.identifier) == ["a", "b", "c", "d", "e"])
    }

    @Test func cancellingReportsTheRunningAndThePendingOperations() async throws {
        let started = Latch()
        let release = Latch()
        let initiator = try Initiator.slowWithFollowers(started: started, release: release)
        let events = initiator.events
        let task = Task { try await initiator.start() }
        try await started.wait()
        initiator.cancel()
        _ = await task.result
        release.open()
        #expect(await operationLines(events) == [
            "started slow", "slow: cancelled", "afterSlow: cancelled", "later: cancelled",
        ])
    }

    @Test func aReportTakenBeforeLaterPhasesRunIsNotChangedByThem() async throws {
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("first", priority: .high) {}
        try initiator.add("second", priority: .low, dependencies: ["first"]) {}
        let early = try await initiator.start()
        let final = await initiator.drain()
        #expect(early.record("second")?.state == .pending)
        #expect(early.record("second")?.readyAt == nil)
        #expect(final.record("second")?.state == .succeeded)
        #expect(final.record("second")?.readyAt != nil)
    }
}
