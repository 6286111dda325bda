import Foundation
import Testing
@testable import ModuleHost

/// A manifest may name its JSON Schema with `$schema`, the key editors read; it must be a string.
@Suite("Manifest $schema key")
struct SchemaReferenceTests {
    @Test func aSchemaReferenceIsAccepted() throws {
        let manager = ModuleManager.forTesting()
        let warnings = try manager.registerModules(from: Data("""
            {"$schema": "./modules.schema.json", "version": 1, "modules": ["ModuleHostTests.BaseModule"]}
            """.utf8), file: "modules.json")
        #expect(warnings.isEmpty)
        #expect(manager.modules.map(\.identifier) == [.base])
    }

    @Test func aSchemaReferenceThatIsNotAStringIsALocatedError() throws {
        let json = "{\n  \"$schema\": 2020,\n  \"modules\": [\"ModuleHostTests.BaseModule\"]\n}"
        var thrown: ManifestError?
        do {
            try ModuleManager.forTesting().registerModules(from: Data(json.utf8), file: "modules.json")
        } catch {
            thrown = error
        }
        let diagnostics = try #require(thrown).diagnostics
        #expect(diagnostics.count == 1)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.code == .wrongType)
        #expect(diagnostic.path == "$schema")
        #expect(diagnostic.location == ManifestDiagnostic.Location(line: 2, column: 14))
        #expect(diagnostic.message.contains("expected a string"))
    }

    @Test func aMisspelledSchemaKeyIsStillUnknown() throws {
        var thrown: ManifestError?
        do {
            try ModuleManager.forTesting().registerModules(
                from: Data(#"{"schema": "./modules.schema.json", "modules": []}"#.utf8), file: "modules.json")
        } catch {
            thrown = error
        }
        let diagnostic = try #require(thrown?.diagnostics.first { $0.code == .unknownField })
        #expect(diagnostic.suggestion == "did you mean \"$schema\"?")
    }
}
