import Foundation
import Testing
@testable import ModuleHost
import TestSupport
import ModuleHostTesting

/// Begins and ends of the session from many threads, racing each other and the releases and loads of the modules
/// that are told of them.
@Suite("User session: concurrency", .timeLimit(.minutes(5)))
struct UserSessionConcurrencyTests: UserSessionSuite {
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
}
