import Foundation
import Testing
@testable import ModuleHost
import ModuleHostTesting

@Suite("Asynchronous teardown", .timeLimit(.minutes(5)))
struct AsyncTeardownTests {
    /// A manager with `probe` injected and the test modules `types` registered from a manifest.
    private func manager(_ types: String..., probe: TeardownProbe) throws -> ModuleManager {
        let manager = ModuleManager()
        manager.provide(probe, as: TeardownProbe.self)
        let list = types.map { "\"ModuleHostTests.\($0)\"" }.joined(separator: ", ")
        try manager.registerModules(from: Data("{\"modules\": [\(list)]}".utf8))
        return manager
    }

    @Test func tearsDownInReverseLoadOrderAwaitingEachTeardownAfterItsSynchronousHook() async throws {
        let probe = TeardownProbe()
        let manager = try manager("TearBaseModule", "TearTopModule", "TearSyncOnlyModule", probe: probe)
        _ = try manager.bridge.resolve(.tearSyncOnly)
        _ = try manager.bridge.resolve(.tearTop)   // loads base first, then top

        let records = await manager.unloadAll(teardownTimeLimit: .seconds(30))

        #expect(records.map(\.module) == [.tearTop, .tearBase, .tearSyncOnly])
        #expect(records.map(\.outcome) == [.finished, .finished, .finished])
        #expect(probe.recorder.events == [
            "will unload top", "teardown began top", "teardown finished top",
            "will unload base", "teardown began base", "teardown finished base",
            "will unload sync-only",
        ])
        #expect(manager.loadedModules().isEmpty)
        #expect(records[1].duration >= .milliseconds(20), "base's teardown sleeps 20 ms and was awaited")
    }

    @Test func aTeardownThatHangsIsReportedByNameAndTheRestStillTearDown() async throws {
        let probe = TeardownProbe()
        let manager = try manager("TearBaseModule", "TearHangingModule", probe: probe)
        _ = try manager.bridge.resolve(.tearHanging)

        // Long enough that the base's 20 ms teardown finishes within it however busy the machine is; the hanging
        // one never does.
        let limit = Duration.seconds(2)
        let records = await manager.unloadAll(teardownTimeLimit: limit)

        #expect(records.map(\.module) == [.tearHanging, .tearBase])
        #expect(records.map(\.outcome) == [.timedOut, .finished])
        #expect(records[0].duration >= limit)
        #expect(records[0].timeLimit == limit)
        #expect(records[0].description.contains("test.teardown.hanging"))
        #expect(records[0].description.contains("timed out"))
        #expect(probe.recorder.events.suffix(2) == ["teardown began base", "teardown finished base"])
    }

    @Test func aTeardownThatTimesOutIsCancelled() async throws {
        let probe = TeardownProbe()
        let manager = try manager("TearBaseModule", "TearHangingModule", probe: probe)
        _ = try manager.bridge.resolve(.tearHanging)

        _ = await manager.unloadAll(teardownTimeLimit: .milliseconds(50))

        // The cancelled teardown ends soon after and says whether it saw the cancellation.
        var ended = probe.teardownEnded.makeAsyncIterator()
        #expect(await ended.next() == true)
    }

    @Test func cancellingTheCallerDoesNotCutTeardownShort() async throws {
        let probe = TeardownProbe()
        let manager = try manager("TearBaseModule", probe: probe)
        _ = try manager.bridge.resolve(.tearBase)

        let unloading = Task { await manager.unloadAll(teardownTimeLimit: .seconds(30)) }
        unloading.cancel()
        let records = await unloading.value

        #expect(records.map(\.outcome) == [.finished])
        #expect(probe.recorder.events.contains("teardown finished base"))
    }

    @Test func aRecordDescribesAFinishedTeardownWithItsDuration() {
        let record = ModuleManager.TeardownRecord(module: "com.example.db", outcome: .finished,
                                          duration: .microseconds(12_540), timeLimit: .seconds(5))
        #expect(record.description == "teardown of com.example.db finished in 12.5 ms")
        let hung = ModuleManager.TeardownRecord(module: "com.example.db", outcome: .timedOut,
                                        duration: .milliseconds(5_003), timeLimit: .seconds(5))
        #expect(hung.description
            == "teardown of com.example.db timed out: still running after its time limit of 5.00 s; no longer waited for")
    }
}
