import Foundation
import Testing
@testable import ModuleHost
import TestSupport
import ModuleHostTesting

@Suite("User session", .timeLimit(.minutes(5)))
struct UserSessionTests {
    typealias A = SessionObserverModule<SessionTagA>
    typealias B = SessionObserverModule<SessionTagB>
    typealias C = SessionObserverModule<SessionTagC>
    typealias D = SessionObserverModule<SessionTagD>

    private static let t1 = Date(timeIntervalSince1970: 1_700_000_000)
    private static let t2 = Date(timeIntervalSince1970: 1_700_000_500)

    /// A manager with `probe` injected and `types` registered in code, in order.
    private func manager(_ probe: SessionProbe, _ types: [any ModuleProtocol.Type]) throws -> ModuleManager {
        let manager = ModuleManager.forTesting()
        manager.provide(probe, as: SessionProbe.self)
        for type in types { try register(type, in: manager) }
        return manager
    }

    private func register<M: ModuleProtocol>(_ type: M.Type, in manager: ModuleManager) throws {
        try manager.register(type)
    }

    private func state(of identifier: ModuleIdentifier, in manager: ModuleManager) -> ModuleDescription.State? {
        manager.modules.first { $0.identifier == identifier }?.state
    }

    // MARK: Loaded modules

    @Test func loadedSessionModulesAreToldBeginAndEndWithTheSession() throws {
        let probe = SessionProbe()
        let manager = try manager(probe, [A.self, SessionBystanderModule.self, B.self])
        let a = try manager.bridge.resolve(A.moduleIdentifier)
        let b = try manager.bridge.resolve(B.moduleIdentifier)
        _ = try manager.bridge.resolve(SessionBystanderModule.moduleIdentifier)
        #expect(manager.session == nil)
        #expect(probe.calls.isEmpty)

        let begun = manager.beginUserSession(with: "alice", startedAt: Self.t1)
        let alice = UserSession(userID: "alice", startedAt: Self.t1)
        #expect(begun == alice)
        #expect(manager.session == alice)
        // Told before beginUserSession returned, with the same userID and startedAt.
        #expect(probe.calls(of: a) == [SessionCall(module: "SessionTagA", instance: ObjectIdentifier(a), kind: .authenticate, session: alice)])
        #expect(probe.calls(of: b) == [SessionCall(module: "SessionTagB", instance: ObjectIdentifier(b), kind: .authenticate, session: alice)])

        let ended = manager.endUserSession(with: "alice")
        #expect(ended == alice)
        #expect(manager.session == nil)
        for module in [a, b] {
            let calls = probe.calls(of: module)
            #expect(calls.map(\.kind) == [.authenticate, .deauthenticate])
            #expect(calls.last?.session == alice)
            #expect(calls.last?.session.startedAt == Self.t1)
        }
        #expect(probe.calls.count == 4)
        #expect(probe.overlaps.isEmpty)
    }

    @Test func anUnloadedSessionModuleIsNotInstantiatedButIsToldWhenItLoads() throws {
        let states = LoadRecorder()
        let probe = SessionProbe { call, context in
            // Where the module is while it is told: still loading, so nobody can resolve it yet.
            let state = context.manager?.modules.first { $0.identifier == A.moduleIdentifier }?.state
            states.record("\(call) while \(state.map(\.rawValue) ?? "absent")")
        }
        let manager = try manager(probe, [A.self, B.self])
        let b = try manager.bridge.resolve(B.moduleIdentifier)

        manager.beginUserSession(with: "alice", startedAt: Self.t1)
        #expect(state(of: A.moduleIdentifier, in: manager) == .registered)
        manager.endUserSession(with: "alice")
        #expect(state(of: A.moduleIdentifier, in: manager) == .registered)
        #expect(probe.events == ["load SessionTagB", "SessionTagB auth alice", "SessionTagB deauth alice"])

        let bob = manager.beginUserSession(with: "bob", startedAt: Self.t2)
        #expect(state(of: A.moduleIdentifier, in: manager) == .registered)
        let a = try manager.bridge.resolve(A.moduleIdentifier)
        // Told once, right after moduleDidLoad, before the resolve returned.
        #expect(probe.calls(of: a) == [SessionCall(module: "SessionTagA", instance: ObjectIdentifier(a), kind: .authenticate, session: bob)])
        #expect(Array(probe.events.suffix(2)) == ["load SessionTagA", "SessionTagA auth bob"])
        #expect(states.events.contains("SessionTagA auth bob while loading"))
        #expect(state(of: A.moduleIdentifier, in: manager) == .loaded)

        // Later resolves do not tell it again; b was told once too.
        _ = try manager.bridge.resolve(A.moduleIdentifier)
        #expect(probe.calls(of: a).count == 1)
        #expect(probe.calls(of: b).map(\.description) == ["SessionTagB auth alice", "SessionTagB deauth alice", "SessionTagB auth bob"])
    }

    @Test func aModuleThatLoadsWithNoSessionIsNotTold() throws {
        let probe = SessionProbe()
        let manager = try manager(probe, [A.self])
        manager.beginUserSession(with: "alice")
        manager.endUserSession(with: "alice")
        let a = try manager.bridge.resolve(A.moduleIdentifier)
        #expect(probe.calls(of: a).isEmpty)
        #expect(probe.events == ["load SessionTagA"])
    }

    // MARK: Changing the session

    @Test func beginForAnotherUserEndsTheOldSessionFirst() throws {
        let probe = SessionProbe()
        let manager = try manager(probe, [A.self, B.self])
        let a = try manager.bridge.resolve(A.moduleIdentifier)
        let b = try manager.bridge.resolve(B.moduleIdentifier)
        let alice = manager.beginUserSession(with: "alice", startedAt: Self.t1)
        let bob = manager.beginUserSession(with: "bob", startedAt: Self.t2)
        #expect(bob == UserSession(userID: "bob", startedAt: Self.t2))
        #expect(manager.session == bob)
        for module in [a, b] {
            let calls = probe.calls(of: module)
            #expect(calls.map(\.kind) == [.authenticate, .deauthenticate, .authenticate])
            #expect(calls.map(\.session) == [alice, alice, bob])
        }
    }

    @Test func beginForTheSameUserChangesNothing() throws {
        let probe = SessionProbe()
        let manager = try manager(probe, [A.self])
        let a = try manager.bridge.resolve(A.moduleIdentifier)
        let first = manager.beginUserSession(with: "alice", startedAt: Self.t1)
        let again = manager.beginUserSession(with: "alice", startedAt: Self.t2)
        #expect(again == first)
        #expect(again.startedAt == Self.t1)
        #expect(manager.session?.startedAt == Self.t1)
        #expect(probe.calls(of: a).map(\.description) == ["SessionTagA auth alice"])
    }

    @Test func endForAUserWithoutTheSessionReturnsNilAndTellsNobody() throws {
        let probe = SessionProbe()
        let manager = try manager(probe, [A.self])
        let a = try manager.bridge.resolve(A.moduleIdentifier)
        #expect(manager.endUserSession(with: "alice") == nil)
        #expect(probe.calls(of: a).isEmpty)

        let alice = manager.beginUserSession(with: "alice", startedAt: Self.t1)
        #expect(manager.endUserSession(with: "bob") == nil)
        #expect(manager.session == alice)
        #expect(probe.calls(of: a).map(\.description) == ["SessionTagA auth alice"])

        #expect(manager.endUserSession(with: "alice") == alice)
        #expect(manager.endUserSession(with: "alice") == nil)
        #expect(probe.calls(of: a).map(\.description) == ["SessionTagA auth alice", "SessionTagA deauth alice"])
    }

    // MARK: Re-entrancy

    @Test func beginFromAnAuthenticateCallbackDoesNotDeadlockAndEveryoneEndsCurrent() throws {
        // A signs "guest" up to "alice" from inside its own authenticate call.
        let probe = SessionProbe { call, manager in
            if call.module == "SessionTagA", call.kind == .authenticate, call.session.userID == "guest" {
                _ = try? manager.beginUserSession(with: "alice", startedAt: Self.t2)
            }
        }
        let manager = try manager(probe, [A.self, B.self])
        let a = try manager.bridge.resolve(A.moduleIdentifier)
        let b = try manager.bridge.resolve(B.moduleIdentifier)
        let returned = Locked<UserSession?>(nil)
        let done = onNewThread {
            let session = manager.beginUserSession(with: "guest", startedAt: Self.t1)
            returned.withLock { $0 = session }
        }
        try #require(done.wait(seconds: 10), "beginUserSession deadlocked when a module began a session from its callback")
        let alice = UserSession(userID: "alice", startedAt: Self.t2)
        #expect(manager.session == alice)
        #expect(returned.withLock { $0 }?.userID == "guest")
        for module in [a, b] {
            let calls = probe.calls(of: module)
            #expect(alternationProblem(in: calls) == nil)
            #expect(calls.last?.kind == .authenticate)
            #expect(calls.last?.session == alice)
        }
        #expect(probe.calls(of: a).map(\.description) == ["SessionTagA auth guest", "SessionTagA deauth guest", "SessionTagA auth alice"])
        #expect(probe.overlaps.isEmpty)
    }

    @Test func endFromAnAuthenticateCallbackAndBeginFromADeauthenticateCallback() throws {
        // A ends any "temp" session as soon as it is told of it; B begins "bob" whenever "alice" ends.
        let probe = SessionProbe { call, manager in
            switch (call.module, call.kind, call.session.userID) {
            case ("SessionTagA", .authenticate, "temp"): _ = try? manager.endUserSession(with: "temp")
            case ("SessionTagB", .deauthenticate, "alice"): _ = try? manager.beginUserSession(with: "bob", startedAt: Self.t2)
            default: break
            }
        }
        let manager = try manager(probe, [A.self, B.self])
        let a = try manager.bridge.resolve(A.moduleIdentifier)
        let b = try manager.bridge.resolve(B.moduleIdentifier)

        let done = onNewThread {
            manager.beginUserSession(with: "temp", startedAt: Self.t1)
        }
        try #require(done.wait(seconds: 10), "a module ending the session from its callback deadlocked")
        #expect(manager.session == nil)
        for module in [a, b] {
            let calls = probe.calls(of: module)
            #expect(alternationProblem(in: calls) == nil)
            #expect(calls.last?.kind != .authenticate)
        }

        manager.beginUserSession(with: "alice", startedAt: Self.t1)
        let ended = onNewThread {
            manager.endUserSession(with: "alice")
        }
        try #require(ended.wait(seconds: 10), "a module beginning a session from its deauthenticate callback deadlocked")
        let bob = UserSession(userID: "bob", startedAt: Self.t2)
        #expect(manager.session == bob)
        for module in [a, b] {
            let calls = probe.calls(of: module)
            #expect(alternationProblem(in: calls) == nil)
            #expect(calls.last?.kind == .authenticate)
            #expect(calls.last?.session == bob)
        }
        #expect(probe.overlaps.isEmpty)
    }

    // MARK: Concurrency

    @Test func concurrentBeginsAndEndsNeverOverlapAndEndCurrent() async throws {
        let probe = SessionProbe(callMicroseconds: 20)
        let types: [any ModuleProtocol.Type] = [A.self, B.self, C.self, D.self]
        let manager = try manager(probe, types)
        let modules = try types.map { try manager.bridge.resolve($0.moduleIdentifier) }
        let users = ["u0", "u1", "u2"]
        let finished = await onThreads(8) { index in
            var generator = SystemRandomNumberGenerator()
            for round in 0..<300 {
                let user = users.randomElement(using: &generator)!
                if Bool.random(using: &generator) {
                    manager.beginUserSession(with: user, startedAt: Date(timeIntervalSince1970: Double(index * 1000 + round)))
                } else {
                    manager.endUserSession(with: user)
                }
            }
        }
        try #require(finished, "concurrent begins and ends did not finish")
        #expect(probe.overlaps.isEmpty)
        #expect(probe.outOfOrder.isEmpty)
        let session = manager.session
        for module in modules {
            let calls = probe.calls(of: module)
            #expect(!calls.isEmpty)
            #expect(alternationProblem(in: calls) == nil)
            if let session {
                #expect(calls.last?.kind == .authenticate, "\(type(of: module))")
                #expect(calls.last?.session == session, "\(type(of: module))")
            } else {
                #expect(calls.last?.kind == .deauthenticate, "\(type(of: module))")
            }
        }
    }

    @Test func concurrentSessionChangesReleasesAndLoadsKeepEachInstanceConsistent() async throws {
        let probe = SessionProbe(callMicroseconds: 10)
        let manager = try manager(probe, [A.self, B.self, C.self])
        // Every instance ever loaded stays alive to the end, so no two share an ObjectIdentifier.
        let instances = Locked<[any ModuleProtocol]>([])
        let stop = Locked(false)
        let finished = await onThreads(6) { index in
            var generator = SystemRandomNumberGenerator()
            switch index {
            case 0, 1:
                // Release and reload A and C (C is released by unloadAll too, below).
                for _ in 0..<60 {
                    let identifier = index == 0 ? A.moduleIdentifier : C.moduleIdentifier
                    _ = try? manager.releaseModule(identifier)
                    if let module = try? manager.bridge.resolve(identifier) { instances.withLock { $0.append(module) } }
                }
                if index == 1 {
                    manager.unloadAllNow()
                    stop.withLock { $0 = true }
                }
            default:
                while !stop.withLock({ $0 }) {
                    let user = ["x", "y"].randomElement(using: &generator)!
                    if Bool.random(using: &generator) { manager.beginUserSession(with: user) } else { manager.endUserSession(with: user) }
                    if let module = try? manager.bridge.resolve(B.moduleIdentifier) { instances.withLock { $0.append(module) } }
                }
            }
        }
        try #require(finished, "session changes during releases did not finish")
        #expect(probe.overlaps.isEmpty)
        #expect(probe.outOfOrder.isEmpty)
        let all = instances.withLock { $0 }
        var seen: Set<ObjectIdentifier> = []
        for module in all where seen.insert(ObjectIdentifier(module)).inserted {
            #expect(alternationProblem(in: probe.calls(of: module)) == nil)
        }
        // Quiet again: whatever is loaded now is told the current session, and nothing released is told anything.
        let before = probe.calls.count
        let current = try [A.self, B.self, C.self].map { (type: any ModuleProtocol.Type) in try manager.bridge.resolve(type.moduleIdentifier) }
        manager.endUserSession(with: "x")
        manager.endUserSession(with: "y")
        manager.beginUserSession(with: "final", startedAt: Self.t1)
        let final = UserSession(userID: "final", startedAt: Self.t1)
        let currentIdentities = Set(current.map { ObjectIdentifier($0) })
        for call in probe.calls.dropFirst(before) {
            #expect(currentIdentities.contains(call.instance), "\(call) went to a released instance")
        }
        for module in current {
            #expect(probe.calls(of: module).last?.session == final)
            #expect(probe.calls(of: module).last?.kind == .authenticate)
        }
        withExtendedLifetime(all) {}
    }

    @Test func sessionChangesRacingReleasesOfFreedInstancesNeverOverlap() async throws {
        // Released instances are not kept, so fresh instances may be allocated where they were, and share
        // their ObjectIdentifier; each instance checks its own calls, so reuse cannot hide a problem.
        let probe = SessionProbe()
        let manager = try manager(probe, [A.self, B.self])
        let stop = Locked(false)
        let rounds = Locked(0)
        // Enough rounds to catch a reused identity most runs (about a second), bounded in time for slow builds.
        let deadline = Date().addingTimeInterval(5)
        let finished = await onThreads(4) { index in
            var generator = SystemRandomNumberGenerator()
            if index == 0 {
                for round in 1...20_000 where Date() < deadline {
                    _ = try? manager.releaseModule(A.moduleIdentifier)
                    _ = try? manager.bridge.resolve(A.moduleIdentifier)
                    _ = try? manager.bridge.resolve(B.moduleIdentifier)
                    rounds.withLock { $0 = round }
                }
                stop.withLock { $0 = true }
            } else {
                while !stop.withLock({ $0 }) {
                    let user = ["x", "y"].randomElement(using: &generator)!
                    if Bool.random(using: &generator) { manager.beginUserSession(with: user) } else { manager.endUserSession(with: user) }
                }
            }
        }
        try #require(finished, "session changes during releases did not finish")
        #expect(probe.overlaps.isEmpty, "\(probe.overlaps.prefix(3))")
        #expect(probe.outOfOrder.isEmpty, "\(probe.outOfOrder.prefix(3))")
        #expect(probe.loadCount > rounds.withLock { $0 })
        let a = try manager.bridge.resolve(A.moduleIdentifier)
        manager.endUserSession(with: "x")
        manager.endUserSession(with: "y")
        manager.beginUserSession(with: "z", startedAt: Self.t1)
        #expect(probe.calls(of: a).last == SessionCall(
            module: "SessionTagA", instance: ObjectIdentifier(a), kind: .authenticate, session: UserSession(userID: "z", startedAt: Self.t1)))
    }

    // MARK: Release and unload

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
