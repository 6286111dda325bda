import Foundation
import Testing
@testable import ModuleHost

protocol ClassBoundIndexService: AnyObject, Sendable {
    func number() -> Int
}

/// Provides an opaque and a class-bound service; found through the index, as the large app's modules are.
final class IndexServiceModule: ModuleProtocol, GreetingService, ClassBoundIndexService {
    static let moduleIdentifier: ModuleIdentifier = "test.index-service"
    static let providedServices: [ProvidedService] = [.service(GreetingService.self), .service(ClassBoundIndexService.self)]
    init(context: any ModuleContext) {}
    func greet(_ name: String) -> String { "Indexed, \(name)." }
    func number() -> Int { 7 }
}

/// Provides the same two services; made by code in its test only, never looked up through the index by name.
final class UnindexedLookupServiceModule: ModuleProtocol, GreetingService, ClassBoundIndexService {
    static let moduleIdentifier: ModuleIdentifier = "test.unindexed-lookup-service"
    static let providedServices: [ProvidedService] = [.service(GreetingService.self), .service(ClassBoundIndexService.self)]
    init(context: any ModuleContext) {}
    func greet(_ name: String) -> String { "Unindexed, \(name)." }
    func number() -> Int { 8 }
}

/// Services made through the index are the values the runtime's `as?` makes, and hold their module as it does.
@Suite("Type index services")
struct TypeIndexServiceTests {
    private static let name = "ModuleHostTests.IndexServiceModule"

    /// The existential's own bytes (passed as `any P` explicitly, so the existential is not opened).
    private static func bytes<T>(_ value: T, as type: T.Type) -> [UInt8] {
        withUnsafeBytes(of: value) { Array($0) }
    }

    @Test func servicesAreTheRuntimesValues() throws {
        #if os(Linux)
        let type = try #require(TypeIndex.moduleType(named: Self.name))
        let module = try type.init(context: ModuleManager())
        let opaque = try #require(TypeIndex.service(module, as: (any GreetingService).self))
        let runtimeOpaque = try #require(module as? any GreetingService)
        #expect(opaque.greet("x") == runtimeOpaque.greet("x"))
        // The opaque container's buffer words beyond the reference are unused; the reference, type and table match.
        #expect(Self.bytes(opaque as any GreetingService, as: (any GreetingService).self).count == 40)
        #expect(Array(Self.bytes(opaque as any GreetingService, as: (any GreetingService).self)[0..<8]) == Array(Self.bytes(runtimeOpaque as any GreetingService, as: (any GreetingService).self)[0..<8]))
        #expect(Array(Self.bytes(opaque as any GreetingService, as: (any GreetingService).self)[24..<40]) == Array(Self.bytes(runtimeOpaque as any GreetingService, as: (any GreetingService).self)[24..<40]))
        let classBound = try #require(TypeIndex.service(module, as: (any ClassBoundIndexService).self))
        let runtimeClassBound = try #require(module as? any ClassBoundIndexService)
        #expect(Self.bytes(classBound as any ClassBoundIndexService, as: (any ClassBoundIndexService).self) == Self.bytes(runtimeClassBound as any ClassBoundIndexService, as: (any ClassBoundIndexService).self))
        #expect(TypeIndex.service(module, as: (any UnprovidedService).self) == nil)
        #expect(TypeIndex.service(module, as: Int.self) == nil)
        #endif
    }

    /// A module whose type the index did not hand out (found by the runtime before the index was built, or made by
    /// code) still has its services made from the index, found by its class's name, with the cast's values.
    @Test func aModuleTheIndexDidNotHandOutStillGetsItsServicesFromIt() throws {
        #if os(Linux)
        _ = try #require(TypeIndex.moduleType(named: "ModuleHostTests.BaseModule"), "the index is built")
        let module = UnindexedLookupServiceModule(context: ModuleManager())
        let opaque = try #require(TypeIndex.service(module, as: (any GreetingService).self))
        #expect(opaque.greet("w") == "Unindexed, w.")
        let classBound = try #require(TypeIndex.service(module, as: (any ClassBoundIndexService).self))
        let runtimeClassBound = try #require((module as any ModuleProtocol) as? any ClassBoundIndexService)
        #expect(Self.bytes(classBound as any ClassBoundIndexService, as: (any ClassBoundIndexService).self) == Self.bytes(runtimeClassBound as any ClassBoundIndexService, as: (any ClassBoundIndexService).self))
        #expect(TypeIndex.service(module, as: (any UnprovidedService).self) == nil)
        #endif
    }

    @Test func aServiceHoldsItsModuleAsACastDoes() throws {
        #if os(Linux)
        let type = try #require(TypeIndex.moduleType(named: Self.name))
        weak var released: AnyObject?
        var service: (any GreetingService)?
        do {
            let module = try type.init(context: ModuleManager())
            released = module
            service = TypeIndex.service(module, as: (any GreetingService).self)
        }
        #expect(released != nil)
        #expect(service?.greet("y") == "Indexed, y.")
        service = nil
        #expect(released == nil)
        #endif
    }

    @Test func resolvesTheSameWithAndWithoutTheIndex() throws {
        let manifest = Data(#"{"modules": ["ModuleHostTests.IndexServiceModule"]}"#.utf8)
        let fast = ModuleManager.forTesting()
        try fast.registerModules(from: manifest)
        #expect(try fast.bridge.resolve(GreetingService.self).greet("z") == "Indexed, z.")
        #expect(try fast.bridge.resolve(ClassBoundIndexService.self).number() == 7)
        try TypeIndex.$isBypassed.withValue(true) {
            let slow = ModuleManager.forTesting()
            try slow.registerModules(from: manifest)
            #expect(try slow.bridge.resolve(GreetingService.self).greet("z") == "Indexed, z.")
            #expect(try slow.bridge.resolve(ClassBoundIndexService.self).number() == 7)
        }
    }
}
