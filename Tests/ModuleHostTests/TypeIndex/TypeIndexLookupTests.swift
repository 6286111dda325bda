import Foundation
import Testing
@testable import ModuleHost

/// The type index finds exactly the module types, witness tables and services that the runtime's own lookup
/// (`_typeByName`, then `as?`) finds, and refuses the same names.
@Suite("Type index lookup")
struct TypeIndexLookupTests {
    static let moduleNames = [
        "BaseModule", "GreeterModule", "SlowModule", "EagerModule", "ReentrantModule", "CycleAModule", "CycleBModule",
        "CrossAModule", "CrossBModule", "RequiresAModule", "RequiresBModule", "NeedsMissingModule", "FailingModule",
        "LiarModule", "OtherGreeterModule", "GreeterImpostorModule", "AccessorModule", "ConfiguredModule",
    ].map { "ModuleHostTests.\($0)" }

    /// The words of an `any ModuleProtocol.Type`: metadata and witness table.
    private static func words(_ type: any ModuleProtocol.Type) -> [UInt] {
        let pair = unsafeBitCast(type as any ModuleProtocol.Type, to: (UInt, UInt).self)
        return [pair.0, pair.1]
    }

    @Test func theStartUpCheckPasses() throws {
        #if os(Linux)
        #expect(TypeIndex.moduleType(named: "ModuleHostTests.BaseModule") != nil)
        #expect(TypeIndex.unavailableReason == nil)
        #endif
    }

    @Test(arguments: moduleNames)
    func findsWhatTheRuntimeFinds(_ name: String) throws {
        let runtime = try #require(_typeByName(name) as? any ModuleProtocol.Type)
        #if os(Linux)
        let indexed = try #require(TypeIndex.moduleType(named: name))
        #expect(Self.words(indexed) == Self.words(runtime))
        #expect(indexed.moduleIdentifier == runtime.moduleIdentifier)
        #endif
        let resolver = ModuleTypeResolver.runtime()
        guard case .module(let found) = resolver.moduleType(named: name) else {
            Issue.record("the runtime resolver does not find \(name)")
            return
        }
        #expect(Self.words(found) == Self.words(runtime))
    }

    @Test(arguments: ["ModuleHostTests.NotAModule", "ModuleHostTests.Nowhere", "Nowhere", "ModuleHostTests.LoadRecorder.Holder",
                      "Swift.Int", "ModuleHost.TypeIndexProbeService", ""])
    func leavesOtherNamesToTheRuntime(_ name: String) {
        #expect(TypeIndex.moduleType(named: name) == nil)
        let resolver = ModuleTypeResolver.runtime()
        let bypassed = TypeIndex.$isBypassed.withValue(true) { resolver.moduleType(named: name) }
        #expect(String(describing: resolver.moduleType(named: name)) == String(describing: bypassed))
        #expect((resolver.type(named: name) == nil) == (_typeByName(name) == nil))
    }

    @Test func bypassedItFindsTheSameModules() {
        let resolver = ModuleTypeResolver.runtime()
        for name in Self.moduleNames {
            let fast = resolver.moduleType(named: name)
            let slow = TypeIndex.$isBypassed.withValue(true) { resolver.moduleType(named: name) }
            guard case .module(let fastType) = fast, case .module(let slowType) = slow else {
                Issue.record("\(name): \(fast) / \(slow)")
                continue
            }
            #expect(Self.words(fastType) == Self.words(slowType))
        }
    }

    @Test func aHostOfManyModulesBuildsTheIndexAfterAFewLookups() {
        #if os(Linux)
        for _ in 0...TypeIndex.lookupsBeforeBuilding {
            _ = TypeIndex.lookUpModuleType(named: "ModuleHostTests.BaseModule")
        }
        #expect(TypeIndex.lookUpModuleType(named: "ModuleHostTests.BaseModule") != nil)
        #endif
    }

    @Test func aFewLookupsLeaveTheIndexUnbuiltAndAManifestOfManyBuildsItAtOnce() {
        var alone = TypeIndex.BuildThreshold()
        let few = (1...TypeIndex.lookupsBeforeBuilding).map { _ in alone.allowsBuilding(forLookupAmong: 1) }
        #expect(few.allSatisfy { !$0 }, "the first 16 lookups, one at a time")
        let seventeenth = alone.allowsBuilding(forLookupAmong: 1)
        #expect(seventeenth)
        var manifest = TypeIndex.BuildThreshold()
        let ofSixteen = manifest.allowsBuilding(forLookupAmong: TypeIndex.lookupsBeforeBuilding)
        #expect(!ofSixteen, "the first lookup of a manifest of 16 modules")
        var larger = TypeIndex.BuildThreshold()
        let ofSeventeen = larger.allowsBuilding(forLookupAmong: TypeIndex.lookupsBeforeBuilding + 1)
        #expect(ofSeventeen, "the first lookup of a manifest of 17 modules")
    }

    @Test func aClosedListResolverNeverConsultsTheIndex() {
        let resolver = ModuleTypeResolver.types([BaseModule.self])
        guard case .notFound = resolver.moduleType(named: "ModuleHostTests.GreeterModule") else {
            Issue.record("a closed list found a type outside it")
            return
        }
    }
}
