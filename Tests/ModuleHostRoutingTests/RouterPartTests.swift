import Foundation
import Testing
import ModuleHost
@testable import ModuleHostRouting
import ModuleHostTesting
import TestSupport

/// The router is a library's part of a manager: made on first use, the same one after, from any thread,
/// and told when modules are registered after it was made.
@Suite("Router as a part of the manager")
struct RouterPartTests {
    @Test func everyCallerGetsTheSameRouterEvenWhenManyAskAtOnce() async {
        let manager = ModuleManager()
        let routers = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<16 { group.addTask { ObjectIdentifier(manager.router) } }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(routers.count == 1)
        #expect(routers.first == ObjectIdentifier(manager.router))
    }

    @Test func aRouterMadeBeforeARegistrationSeesItsRoutes() async throws {
        let manager = ModuleManager()
        manager.provide(LoadRecorder(), as: LoadRecorder.self)
        #expect(manager.router.routes.isEmpty)
        try manager.registerModules(from: Data(#"{"modules": ["ModuleHostRoutingTests.RouteAlphaModule"]}"#.utf8))
        #expect(manager.router.routes.contains { $0.identifier == "alpha.latest" })
        let result = try await manager.router.open("/alpha/items/latest")
        #expect(result.output.text == "latest")
    }

    @Test func twoManagersHaveTwoRouters() {
        let first = ModuleManager(), second = ModuleManager()
        #expect(first.router !== second.router)
    }
}
