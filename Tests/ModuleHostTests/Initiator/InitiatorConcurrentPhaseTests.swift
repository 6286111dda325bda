import Dispatch
import Foundation
import Testing
@testable import ModuleHost

/// A concurrent phase runs its operations side by side, never more than the bound at once, each as soon as its
/// dependencies are done, every one of them however long the chain; one that cancels its own task cancels no other.
@Suite("Initiator: the concurrent phase")
struct InitiatorConcurrentPhaseTests {
    @Test func concurrentPhaseReallyOverlaps() async throws {
        let bothStarted = Latch(count: 2)
        let recorder = Recorder()
        let initiator = Initiator(maxConcurrentOperations: 2)
        for id in ["left", "right"] {
            // Each waits for the other to have started; run one at a time, they would time out instead.
            try initiator.add(id, priority: .asyncHigh, timeout: .seconds(20), operation: recorder.body(id) {
                bothStarted.arrive()
                try await bothStarted.wait()
            })
        }
        let report = try await initiator.start()
        #expect(report.state("left") == .succeeded)
        #expect(report.state("right") == .succeeded)
        let left = try #require(recorder.interval("left")), right = try #require(recorder.interval("right"))
        let leftEnd = try #require(left.end), rightEnd = try #require(right.end)
        #expect(left.start < rightEnd && right.start < leftEnd)

        let trace = try JSONSerialization.jsonObject(with: report.chromeTrace()) as? [String: Any]
        let events = try #require(trace?["traceEvents"] as? [[String: Any]])
        let complete = events.filter { $0["ph"] as? String == "X" }
        #expect(complete.count == 2)
        #expect(Set(complete.compactMap { $0["tid"] as? Int }).count == 2)
    }

    @Test func concurrencyBoundIsNeverExceeded() async throws {
        let bound = 3
        let counter = ConcurrencyCounter()
        let reachedBound = Latch()
        let initiator = Initiator(maxConcurrentOperations: bound)
        for i in 0..<20 {
            try initiator.add("op\(i)", priority: .asyncHigh, timeout: .seconds(20)) {
                if counter.enter() >= bound { reachedBound.open() }
                defer { counter.leave() }
                try await reachedBound.wait()
            }
        }
        let report = try await initiator.start()
        #expect(report.totals.count(.succeeded) == 20)
        #expect(counter.maximum <= bound)
        #expect(counter.maximum == bound)
    }

    @Test func concurrentPhaseStartsOperationsAsSoonAsTheirDependenciesAreDone() async throws {
        // "fast2" depends only on "fast1"; it must not wait for the unrelated "slow" at the same level.
        let release = Latch()
        let recorder = Recorder()
        let initiator = Initiator(maxConcurrentOperations: 4)
        try initiator.add("slow", priority: .asyncHigh, timeout: .seconds(20), operation: recorder.body("slow") {
            try await release.wait()
        })
        try initiator.add("fast1", priority: .asyncHigh, operation: recorder.body("fast1"))
        try initiator.add("fast2", priority: .asyncHigh, dependencies: ["fast1"], operation: recorder.body("fast2") {
            release.open()
        })
        let report = try await initiator.start()
        #expect(report.isSuccessful)
        #expect(report.state("slow") == .succeeded)
        #expect(recorder.finished("fast1", before: "fast2"))
        let fast2 = try #require(recorder.interval("fast2")), slowEnd = try #require(recorder.interval("slow")?.end)
        #expect(fast2.start < slowEnd)
    }

    @Test func operationsMadeReadyTogetherRunTogetherBesideASlowOne() async throws {
        // "gate" ends while "slow" still runs and makes three dependents ready at once: with four slots they must all
        // run beside "slow", not one after another on the task that ran "gate". Each waits for all four to have
        // started; run one at a time, they would time out (the limit is a deadlock guard, not a measure).
        let allStarted = Latch(count: 4)
        let initiator = Initiator(maxConcurrentOperations: 4)
        let waitForAll: StartupOperationBody = {
            allStarted.arrive()
            try await allStarted.wait()
        }
        try initiator.add("slow", priority: .asyncHigh, timeout: .seconds(60), operation: waitForAll)
        try initiator.add("gate", priority: .asyncHigh) {}
        for id in ["d1", "d2", "d3"] {
            try initiator.add(id, priority: .asyncHigh, dependencies: ["gate"], timeout: .seconds(60), operation: waitForAll)
        }
        let report = try await initiator.start()
        #expect(report.isSuccessful)
        #expect(report.totals.count(.succeeded) == 5)
    }

    @Test func anOperationThatCancelsItsOwnTaskCancelsNoOther() async throws {
        // One slot: the operations run one after another, and those after a body that cancelled its own task must not
        // start on a cancelled task (one depends on the canceller, one does not; one has a timeout, one has none).
        let initiator = Initiator(maxConcurrentOperations: 1)
        let sawCancellation = Locked<[String]>([])
        try initiator.add("canceller", priority: .asyncHigh) { withUnsafeCurrentTask { $0?.cancel() } }
        for (id, dependencies) in [("after", ["canceller"]), ("unrelated", [])] {
            for (suffix, timeout) in [("", nil), ("-timed", Duration.seconds(60))] {
                try initiator.add(id + suffix, priority: .asyncHigh, dependencies: dependencies, timeout: timeout) {
                    if Task.isCancelled { sawCancellation.withLock { $0.append(id + suffix) } }
                    try Task.checkCancellation()
                }
            }
        }
        let report = try await initiator.start()
        #expect(report.isSuccessful)
        #expect(report.totals.count(.succeeded) == 5)
        #expect(sawCancellation.withLock { $0 }.isEmpty)
    }

    @Test func aLongChainInAConcurrentPhaseRunsInOrderAndCompletely() async throws {
        // One operation made ready at a time: the task that ran each one runs the next, and the report has them all.
        let recorder = Recorder()
        let initiator = Initiator(maxConcurrentOperations: 4)
        for i in 0..<200 {
            try initiator.add("c\(i)", priority: .asyncHigh, dependencies: i == 0 ? [] : ["c\(i - 1)"],
                              operation: recorder.body("c\(i)"))
        }
        let report = try await initiator.start()
        #expect(report.totals.count(.succeeded) == 200)
        #expect(recorder.startOrder == (0..<200).map { "c\($0)" })
    }
}
