import Foundation
import Testing
@testable @_spi(Seed) import ModuleHost
import TestSupport
import ModuleHostTesting

@Suite("User session", .timeLimit(.minutes(5)))
struct UserSessionTests: UserSessionSuite {
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

}
