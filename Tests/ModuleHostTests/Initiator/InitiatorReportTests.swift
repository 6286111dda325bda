import Foundation
import Testing
@testable import ModuleHost
@testable import ModuleHostJSON

/// A finished record with times in milliseconds, for report tests that need exact times.
private func record(
    _ id: String, _ phase: ModuleStartupOperation.Priority, deps: [String] = [], ready: Double, start: Double, end: Double,
    state: StartupReport.OperationRecord.State = .succeeded
) -> StartupReport.OperationRecord {
    StartupReport.OperationRecord(identifier: id, module: nil, phase: phase, dependencies: deps,
                    failurePolicy: phase.defaultFailurePolicy, state: state,
                    readyAt: .milliseconds(ready), startedAt: .milliseconds(start), finishedAt: .milliseconds(end))
}

@Suite("Initiator: reports")
struct InitiatorReportTests {
    @Test func recordsShowWaitingSeparatelyFromRunning() async throws {
        let recorder = Recorder()
        let initiator = Initiator(maxConcurrentOperations: 1)
        try initiator.add("first", priority: .asyncHigh, operation: recorder.body("first") {
            try await Task.sleep(for: .milliseconds(5))
        })
        try initiator.add("second", priority: .asyncHigh, operation: recorder.body("second"))
        let report = try await initiator.start()
        let first = try #require(report.record("first")), second = try #require(report.record("second"))
        // Both were ready when the phase began; "second" had to wait for the only slot.
        #expect(first.readyAt == second.readyAt)
        let secondStart = try #require(second.startedAt), firstEnd = try #require(first.finishedAt)
        #expect(secondStart >= firstEnd)
        #expect(second.waited == secondStart - (second.readyAt ?? .zero))
        #expect((second.waited ?? .zero) >= (first.ran ?? .seconds(1_000)))
        for record in report.operations {
            let ready = try #require(record.readyAt), start = try #require(record.startedAt)
            let end = try #require(record.finishedAt)
            #expect(ready <= start && start <= end)
            #expect(record.ran == end - start)
        }
    }

    @Test func snapshotShowsPendingOperationsBeforeStart() throws {
        let initiator = Initiator()
        try initiator.add("a", module: "com.example.a", priority: .low) {}
        let report = initiator.report
        #expect(report.operations.map(\.identifier) == ["a"])
        #expect(report.state("a") == .pending)
        #expect(report.record("a")?.failurePolicy == .optional)
        #expect(!report.isComplete)
        #expect(report.totals.count(.pending) == 1)
    }

    @Test func criticalPathFollowsLatestFinishingDependency() async throws {
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("boot", priority: .high) {}
        try initiator.add("config", priority: .asyncHigh, dependencies: ["boot"]) {}
        try initiator.add("session", priority: .asyncHigh, dependencies: ["config"]) {}
        try initiator.add("later", priority: .low) {}
        let report = try await initiator.start()
        #expect(report.criticalPath == ["boot", "config", "session"])
    }

    @Test func criticalPathPicksTheDependencyThatFinishedLast() {
        let records = [
            record("h1", .high, ready: 0, start: 0, end: 2),
            record("h2", .high, ready: 0, start: 2, end: 3),
            record("quick", .asyncHigh, ready: 3, start: 3, end: 4),
            record("slow", .asyncHigh, ready: 3, start: 3, end: 10),
            record("join", .asyncHigh, deps: ["quick", "slow"], ready: 10, start: 10, end: 12),
            record("side", .asyncHigh, ready: 3, start: 3, end: 11),
            record("after", .low, ready: 20, start: 20, end: 50),
        ]
        let report = StartupReport(operations: records, phases: [])
        #expect(report.criticalPath == ["h1", "h2", "slow", "join"])
    }

    @Test func totalsCountStatesAndPhaseTimes() async throws {
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("ok", priority: .high) {}
        try initiator.add("bad", priority: .asyncHigh, failurePolicy: .optional) { throw TestFailure("nope") }
        try initiator.add("dependent", priority: .asyncHigh, dependencies: ["bad"], failurePolicy: .optional) {}
        try initiator.add("later", priority: .idle) {}
        let report = try await initiator.start()
        #expect(report.totals.count(.succeeded) == 1)
        #expect(report.totals.count(.failed) == 1)
        #expect(report.totals.count(.skipped) == 1)
        #expect(report.totals.count(.pending) == 1)
        #expect(report.phases.map(\.phase) == ModuleStartupOperation.Priority.allCases)
        #expect(report.phases[0].wallTime != nil && report.phases[1].wallTime != nil)
        #expect(report.phases[2].startedAt == nil)
        #expect(report.totals.blockingWallTime == report.phases[1].finishedAt)
        #expect(report.isSuccessful)
        #expect(!report.isComplete)
    }

    @Test func tableListsEveryOperationWithCriticalPathAndTotals() async throws {
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("database", module: "com.example.storage", priority: .high) {}
        try initiator.add("remote-config", priority: .asyncHigh, dependencies: ["database"],
                          failurePolicy: .optional) { throw TestFailure("offline") }
        try initiator.add("prefetch", priority: .low, dependencies: ["remote-config"]) {}
        _ = try await initiator.start()
        let report = await initiator.drain()
        let table = report.renderTable()
        for id in ["database", "remote-config", "prefetch"] { #expect(table.contains(id)) }
        #expect(table.contains("OPERATION"))
        #expect(table.contains("com.example.storage"))
        #expect(table.contains("offline"))
        #expect(table.contains("critical path: database -> remote-config"))
        #expect(table.contains("1 succeeded, 1 failed, 1 skipped"))
        #expect(table.split(separator: "\n").allSatisfy { $0.count <= 100 })
        #expect(!table.contains("\u{1B}["))
        #expect(report.renderTable(useColor: true).contains("\u{1B}[31m"))
    }

    @Test func jsonUsesMillisecondsAndSortedKeys() async throws {
        let initiator = Initiator()
        try initiator.add("a", module: "com.example.a", priority: .high) {}
        let report = try await initiator.start()
        let data = try report.jsonData()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let operations = try #require(object["operations"] as? [[String: Any]])
        let first = try #require(operations.first)
        #expect(first["identifier"] as? String == "a")
        #expect(first["module"] as? String == "com.example.a")
        #expect(first["state"] as? String == "succeeded")
        #expect(first["ranMs"] is Double)
        #expect(first["waitedMs"] is Double)
        #expect(first["startedAtMs"] is Double)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains("\"criticalPath\""))
        // Sorted keys: every object's members, read in file order by the manifest's parser, are in key order.
        let parsed = try JSONParser.parse(Array(data))
        var objects = 0
        func checkSorted(_ value: JSONValue) {
            switch value.kind {
            case .object(let members):
                objects += 1
                let keys = members.map(\.key)
                #expect(keys == keys.sorted(), "keys out of order at \(value.location): \(keys)")
                members.forEach { checkSorted($0.value) }
            case .array(let elements): elements.forEach(checkSorted)
            default: break
            }
        }
        checkSorted(parsed)
        #expect(objects >= 3, "the report, its operation and its phase are objects")
        let decoded = try JSONDecoder().decode(StartupReport.self, from: data)
        #expect(decoded.operations.map(\.identifier) == ["a"])
        #expect(decoded.state("a") == .succeeded)
    }

    @Test func chromeTraceHasOneCompleteEventPerRunOperation() async throws {
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("boot", priority: .high) {}
        try initiator.add("fails", priority: .asyncHigh, failurePolicy: .optional) { throw TestFailure("x") }
        try initiator.add("skipped", priority: .asyncHigh, dependencies: ["fails"], failurePolicy: .optional) {}
        try initiator.add("works", priority: .asyncHigh) {}
        let report = try await initiator.start()
        let trace = try #require(try JSONSerialization.jsonObject(with: report.chromeTrace()) as? [String: Any])
        #expect(trace["displayTimeUnit"] as? String == "ms")
        let events = try #require(trace["traceEvents"] as? [[String: Any]])
        let complete = events.filter { $0["ph"] as? String == "X" }
        #expect(Set(complete.compactMap { $0["name"] as? String }) == ["boot", "fails", "works"])
        #expect(complete.count == 3)
        for event in complete {
            #expect(event["pid"] as? Int == 1)
            #expect(event["ts"] is Double && event["dur"] is Double)
            #expect(event["cat"] is String)
            #expect((event["args"] as? [String: Any])?["state"] is String)
        }
        let failing = complete.first { $0["name"] as? String == "fails" }
        #expect((failing?["args"] as? [String: Any])?["error"] as? String == "x")
        #expect(events.contains { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" })
        #expect(events.contains { $0["ph"] as? String == "i" && $0["name"] as? String == "asyncHigh began" })
    }

    @Test func eventsReportStartsAndFinishes() async throws {
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("a", priority: .high) {}
        try initiator.add("b", priority: .asyncHigh, failurePolicy: .optional) { throw TestFailure("no") }
        let events = initiator.events
        _ = await initiator.drain()
        var started: [String] = []
        var finished: [String: StartupReport.OperationRecord.State] = [:]
        var sawFinish = false
        for await event in events {
            switch event {
            case .operationStarted(let id, _): started.append(id)
            case .operationFinished(let record): finished[record.identifier] = record.state
            case .finished: sawFinish = true
            case .phaseStarted, .phaseFinished: break
            }
        }
        #expect(started == ["a", "b"])
        #expect(finished == ["a": .succeeded, "b": .failed])
        #expect(sawFinish)
    }
}

@Suite("Report decoding")
struct ReportDecodingTests {
    @Test func derivedFieldsComeFromTheRecordsNotFromTheJSON() throws {
        let report = StartupReport(operations: [
            record("boot", .high, ready: 0, start: 0, end: 2),
            record("broken", .asyncHigh, ready: 2, start: 2, end: 3, state: .failed),
        ], phases: [])
        let encoded = try #require(try JSONSerialization.jsonObject(with: report.jsonData()) as? [String: Any])
        #expect(encoded["isSuccessful"] as? Bool == false)
        #expect(encoded["criticalPath"] as? [String] == ["boot", "broken"])
        var tampered = encoded
        tampered["isSuccessful"] = true
        tampered["isComplete"] = false
        tampered["criticalPath"] = ["nothing"]
        tampered["totals"] = ["counts": ["succeeded": 99]]
        let decoded = try JSONDecoder().decode(
            StartupReport.self, from: JSONSerialization.data(withJSONObject: tampered))
        #expect(decoded == report)
        #expect(!decoded.isSuccessful)
        #expect(decoded.isComplete)
        #expect(decoded.criticalPath == ["boot", "broken"])
        #expect(decoded.totals.count(.succeeded) == 1)
    }

    @Test func outOfRangeMillisecondsAreADecodingErrorNotATrap() {
        let json = #"{"phase": "high", "startedAtMs": 1e300, "finishedAtMs": 1, "wallTimeMs": 1}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StartupReport.PhaseRecord.self, from: Data(json.utf8)) }
    }
}
