import Foundation
import Testing
@testable import ModuleHost
import TestSupport

/// With the index or without it (the fallback a failed start-up check takes), a manifest gets the same report
/// and the same registrations.
@Suite("Type index diagnostics")
struct TypeIndexDiagnosticsTests {
    private static let mixed = #"""
        {"modules": [
          "ModuleHostTests.BaseModule",
          {"type": "ModuleHostTests.GreeterModul"},
          {"type": "GreeterModule"},
          {"type": "ModuleHostTests.NotAModule"},
          {"type": "ModuleHostTests.ConfiguredModule", "config": {"greeting": 3}},
          {"type": "ModuleHostTests.Nowhere", "enabled": false}
        ]}
        """#

    private static func report(_ json: String) -> [String] {
        ModuleManager().validateManifest(Data(json.utf8), file: "modules.json").map(\.description)
    }

    @Test func unknownNamesAreRefusedWithTheSameDiagnostics() {
        let fast = Self.report(Self.mixed)
        let slow = TypeIndex.$isBypassed.withValue(true) { Self.report(Self.mixed) }
        #expect(fast == slow)
        #expect(fast.contains { $0.contains("type names are qualified with their Swift module") })
        #expect(fast.count == 4, "the disabled entry's type, not linked, is no problem: \(fast)")
        #expect(fast.contains { $0.contains("exists but does not conform to ModuleProtocol") })
    }

    @Test func registrationsAndConfigurationsAreTheSame() throws {
        let json = #"""
            {"modules": ["ModuleHostTests.BaseModule", "ModuleHostTests.GreeterModule",
                         {"type": "ModuleHostTests.ConfiguredModule", "config": {"greeting": "hi", "users": [{"name": "a", "age": 1}]}}]}
            """#
        func registered() throws -> [String] {
            let recorder = LoadRecorder()
            let manager = ModuleManager.forTesting(recorder: recorder)
            try manager.registerModules(from: Data(json.utf8))
            _ = try manager.bridge.resolve(GreetingService.self)
            _ = try manager.bridge.resolve(.init(rawValue: "test.configured"))
            return manager.modules.map { "\($0.identifier) \($0.state)" } + recorder.events
        }
        let fast = try registered()
        let slow = try TypeIndex.$isBypassed.withValue(true) { try registered() }
        #expect(fast == slow)
        #expect(fast.contains("config greeting: hi, users: 1"))
    }
}
