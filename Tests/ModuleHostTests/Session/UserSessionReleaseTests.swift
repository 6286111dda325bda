import Foundation
import Testing
@testable import ModuleHost
import TestSupport
import ModuleHostTesting

/// A module instance released or unloaded is told nothing more of the session.
@Suite("User session: released and unloaded modules", .timeLimit(.minutes(5)))
struct UserSessionReleaseTests: UserSessionSuite {
    @Test func releasedAndUnloadedInstancesAreToldNothingMore() throws {
        let probe = SessionProbe()
        let manager = try manager(probe, [A.self, B.self])
        let oldA = try manager.bridge.resolve(A.moduleIdentifier)
        let oldB = try manager.bridge.resolve(B.moduleIdentifier)
        manager.beginUserSession(with: "alice", startedAt: Self.t1)

        #expect(try manager.releaseModule(A.moduleIdentifier) == [A.moduleIdentifier])
        manager.endUserSession(with: "alice")
        manager.beginUserSession(with: "bob", startedAt: Self.t2)
        // Detached before moduleWillUnload, and not told that alice's session ended either.
        #expect(probe.calls(of: oldA).map(\.description) == ["SessionTagA auth alice"])
        #expect(probe.calls(of: oldB).map(\.description) == ["SessionTagB auth alice", "SessionTagB deauth alice", "SessionTagB auth bob"])

        // The fresh instance is told the session that is active when it loads.
        let newA = try manager.bridge.resolve(A.moduleIdentifier)
        #expect(newA !== oldA)
        #expect(probe.calls(of: newA).map(\.description) == ["SessionTagA auth bob"])

        #expect(manager.unloadAllNow() == [A.moduleIdentifier, B.moduleIdentifier])
        manager.endUserSession(with: "bob")
        manager.beginUserSession(with: "carol")
        manager.endUserSession(with: "carol")
        #expect(probe.calls(of: newA).count == 1)
        #expect(probe.calls(of: oldB).count == 3)
        #expect(probe.calls(of: oldA).count == 1)
        #expect(probe.callsAfterUnload.isEmpty)
        #expect(probe.events.filter { $0.hasPrefix("unload") } == ["unload SessionTagA", "unload SessionTagA", "unload SessionTagB"])
    }

    @Test func aCallInProgressDuringReleaseIsTheInstancesLast() throws {
        // A's authenticate call blocks until the test lets it go, on another thread.
        let entered = Signal(), proceed = Signal()
        let probe = SessionProbe { call, _ in
            if call.module == "SessionTagA", call.kind == .authenticate {
                entered.fire()
                _ = proceed.wait()
            }
        }
        let manager = try manager(probe, [A.self])
        let oldA = try manager.bridge.resolve(A.moduleIdentifier)
        let began = onNewThread {
            manager.beginUserSession(with: "alice", startedAt: Self.t1)
        }
        try #require(entered.wait(), "A was not told the session")

        // Neither ending the session nor releasing A waits for the call in progress.
        let released = Locked<[ModuleIdentifier]?>(nil)
        let endedAndReleased = onNewThread {
            manager.endUserSession(with: "alice")
            released.withLock { $0 = try? manager.releaseModule(A.moduleIdentifier) }
        }
        let finished = endedAndReleased.wait(seconds: 10)
        proceed.fire()
        try #require(finished, "end or release waited for a session call in progress")
        try #require(began.wait(), "beginUserSession did not return")
        #expect(released.withLock { $0 } == [A.moduleIdentifier])
        #expect(manager.session == nil)
        // The thread that was telling A does not go on to tell the released instance that alice's session ended.
        #expect(probe.calls(of: oldA).map(\.description) == ["SessionTagA auth alice"])
        let newA = try manager.bridge.resolve(A.moduleIdentifier)
        #expect(newA !== oldA)
        #expect(probe.calls(of: newA).isEmpty)
    }
}
