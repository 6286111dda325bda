import Dispatch
import Foundation
import Testing
@testable import ModuleHost

/// How the Initiator launches bodies: `.high` ones in one main-actor turn, concurrent phases as
/// child tasks (`.low` at background priority), and a race only for operations with a timeout.
@Suite("Initiator: launching bodies")
struct InitiatorLaunchTests {
    @Test func everyHighOperationOfAPhaseRunsOnTheMainActor() async throws {
        let key = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: key, value: 16)
        let onMain = Box<[Bool]>([])
        let initiator = Initiator()
        for index in 0..<5 {
            // Plain closures (not @MainActor), some depending on an earlier one, one with a timeout.
            try initiator.add("ui.\(index)", priority: .high, dependencies: index > 0 ? ["ui.\(index - 1)"] : [],
                              timeout: index == 3 ? .seconds(60) : nil) {
                onMain.update { $0.append(DispatchQueue.getSpecific(key: key) == 16) }
            }
        }
        try await initiator.start()
        #expect(onMain.value == [true, true, true, true, true])
    }

    @Test(arguments: [ModuleStartupOperation.Priority.high, .asyncHigh])
    func aTimedOperationIgnoringCancellationStillTimesOut(priority: ModuleStartupOperation.Priority) async throws {
        let release = Latch()
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("stubborn", priority: priority, timeout: .milliseconds(20)) {
            await release.waitIgnoringCancellation()
        }
        try initiator.add("after", priority: .asyncHigh, dependencies: ["stubborn"]) {}
        let error = await #expect(throws: InitiatorError.self) { try await initiator.start() }
        #expect(!release.isOpen)  // startup settled while the body was still running
        release.open()
        #expect(error?.code == .requiredOperationFailed)
        #expect(error?.report?.state("stubborn") == .timedOut)
        #expect(error?.report?.state("after") == .skipped)
    }

    @Test(arguments: [ModuleStartupOperation.Priority.low, .idle])
    func laterPhaseBodiesRunAtBackgroundPriority(priority: ModuleStartupOperation.Priority) async throws {
        let seen = Box<[TaskPriority]>([])
        let initiator = Initiator(maxConcurrentOperations: 2)
        for index in 0..<3 {
            try initiator.add("later.\(index)", priority: priority, timeout: index == 2 ? .seconds(60) : nil) {
                seen.update { $0.append(Task.currentPriority) }
            }
        }
        try initiator.add("blocking", priority: .asyncHigh) {
            seen.update { $0.append(Task.currentPriority) }
        }
        let report = await initiator.drain()
        #expect(report.isSuccessful)
        // `blocking` is first (it runs before the later phase); the others run at background priority.
        #expect(seen.value.count == 4)
        #expect(seen.value.first != .background)
        #expect(seen.value.dropFirst().allSatisfy { $0 == .background }, "\(seen.value)")
    }
}
