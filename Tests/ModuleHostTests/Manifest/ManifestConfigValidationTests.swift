import Foundation
import Testing
import TestSupport
@testable import ModuleHost

/// A module's `config`: one that does not decode is located, one a module needs is required, one it does not read is
/// a warning.
@Suite("Manifest validation: module config")
struct ManifestConfigValidationTests: ManifestValidationSuite {
    @Test func configThatDoesNotDecodeIsLocated() throws {
        let diagnostic = try only(.invalidConfig, in: """
            {"modules": [
              {"type": "ModuleHostTests.ConfiguredModule", "config": {
                "greeting": "hi",
                "users": [{"name": "a", "age": 1}, {"name": "b", "age": "old"}]
              }}
            ]}
            """)
        #expect(diagnostic.path == "modules[0].config.users[1].age")
        #expect(diagnostic.message == "expected an integer, found a string")
        #expect(diagnostic.location == ManifestDiagnostic.Location(line: 4, column: 61))
    }

    @Test func missingConfigForAModuleThatNeedsOne() throws {
        let diagnostic = try only(.invalidConfig, in: #"{"modules": ["ModuleHostTests.ConfiguredModule"]}"#)
        #expect(diagnostic.message.contains("needs a \"config\" object"))
        #expect(diagnostic.message.contains("missing field \"greeting\""))
    }

    @Test func configForAModuleWithoutOneIsAWarning() throws {
        let manager = ModuleManager()
        let warnings = try manager.registerModules(from: Data(#"{"modules": [{"type": "ModuleHostTests.BaseModule", "config": {"x": 1}}]}"#.utf8))
        #expect(warnings.map(\.code) == [.unusedConfig])
        #expect(warnings[0].severity == .warning)
    }
}
