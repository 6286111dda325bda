import Foundation
import Testing
import TestSupport
@testable import ModuleHost

/// One test per validation problem, asserting the message names the file, the place and what was expected.
@Suite("Manifest validation")
struct ManifestValidationTests: ManifestValidationSuite {
    @Test func acceptsRichForm() throws {
        let manager = ModuleManager.forTesting()
        let warnings = try manager.registerModules(from: Data("""
            {"version": 1, "modules": [
              {"type": "ModuleHostTests.BaseModule"},
              {"type": "ModuleHostTests.GreeterModule", "enabled": true, "eager": false}
            ]}
            """.utf8))
        #expect(warnings.isEmpty)
        #expect(manager.modules.map(\.identifier) == [.base, .greeter])
        #expect(manager.modules.map(\.state) == [.registered, .registered])
    }

    @Test func acceptsSeedPlainForm() throws {
        let manager = ModuleManager.forTesting()
        try manager.registerModules(from: Data(#"{"modules": ["ModuleHostTests.BaseModule", "ModuleHostTests.GreeterModule"]}"#.utf8))
        #expect(try manager.bridge.resolve(GreetingService.self).greet("seed") == "Hello, seed!")
    }

    @Test func registersFromFileURLWithTheSeedName() throws {
        let directory = try TemporaryDirectory()
        let url = try directory.write(#"{"modules": ["ModuleHostTests.BaseModule"]}"#, to: "modules.json")
        let manager = ModuleManager.forTesting()
        try manager.registerModules(withConfigFilePath: url)
        #expect(manager.modules.map(\.identifier) == [.base])
        #expect(manager.modules[0].origin.contains("modules.json: modules[0]"))
    }

    @Test func malformedJSONHasLineAndColumn() throws {
        let diagnostic = try only(.malformedJSON, in: "{\n  \"modules\": [\n    \"A.B\"\n    \"C.D\"\n  ]\n}")
        #expect(diagnostic.location == ManifestDiagnostic.Location(line: 4, column: 5))
        #expect(diagnostic.message.contains("expected ',' or ']'"))
        #expect(diagnostic.description.hasPrefix("modules.json:4:5: error:"))
    }

    /// A look-alike letter in a type name shows as what it is, so the suggestion does not read as the same name.
    @Test func aLookAlikeLetterInATypeNameIsMarked() {
        let found = diagnostics(#"{"modules": ["ModuleHostTests.BaseМodule"]}"#)
        let message = found.first?.message ?? ""
        #expect(message.contains(#"no type named "ModuleHostTests.Base\u{41c}odule""#), "\(message)")
    }

    /// An empty string is a string: the message says it is empty, not that a string was found where one was expected.
    @Test func anEmptyStringIsCalledEmpty() {
        let found = diagnostics(#"{"modules": [{"type": "", "library": ""}]}"#)
        let byPath = Dictionary(found.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byPath["modules[0].library"]?.message == "expected a path to a shared library, found an empty string")
        #expect(byPath["modules[0].type"]?.message.hasPrefix("the type name is empty") == true, "\(found)")
    }

    @Test func wrongFieldTypes() {
        let found = diagnostics(#"{"version": "1", "modules": [{"type": 42, "enabled": "yes", "eager": 1, "config": []}]}"#)
        let byPath = Dictionary(found.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byPath["version"]?.message == "expected an integer, found a string")
        #expect(byPath["modules[0].type"]?.message.contains("expected a string naming the module's type") == true)
        #expect(byPath["modules[0].enabled"]?.message == "expected true or false, found a string")
        #expect(byPath["modules[0].eager"]?.message == "expected true or false, found a number")
        #expect(byPath["modules[0].config"]?.message == "expected an object, found an array")
        #expect(found.allSatisfy { $0.code == .wrongType })
        #expect(found.count == 5)
    }

    @Test func modulesMustBeAnArray() throws {
        let diagnostic = try only(.wrongType, in: #"{"modules": "ModuleHostTests.BaseModule"}"#)
        #expect(diagnostic.path == "modules")
        #expect(diagnostic.message == "expected an array of module entries, found a string")
    }

    @Test func unknownFieldsAreErrorsWithASuggestion() throws {
        let diagnostic = try only(.unknownField, in: #"{"modules": [{"type": "ModuleHostTests.BaseModule", "enabeld": false}]}"#)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.path == "modules[0].enabeld")
        #expect(diagnostic.suggestion == "did you mean \"enabled\"?")
        #expect(diagnostic.location == ManifestDiagnostic.Location(line: 1, column: 53))
    }

    @Test func unknownTypeSuggestsTheClosestName() throws {
        let diagnostic = try only(.unknownType, in: """
            {"modules": [
              "ModuleHostTests.BaseModule",
              {"type": "ModuleHostTests.GreeterModul"}
            ]}
            """)
        #expect(diagnostic.path == "modules[1].type")
        #expect(diagnostic.message.contains("no type named \"ModuleHostTests.GreeterModul\""))
        #expect(diagnostic.location == ManifestDiagnostic.Location(line: 3, column: 3))
        // The registered/known names feed the suggestion.
        let manager = ModuleManager(typeResolver: .runtime(knownTypeNames: ["ModuleHostTests.GreeterModule"]))
        #expect(throws: ManifestError.self) {
            try manager.registerModules(from: Data(#"{"modules": ["ModuleHostTests.GreeterModul"]}"#.utf8))
        }
        let suggested = manager.validateManifestData(#"{"modules": ["ModuleHostTests.GreeterModul"]}"#)
        #expect(suggested.first?.suggestion == "did you mean \"ModuleHostTests.GreeterModule\"?")
    }

    @Test func unqualifiedTypeNameExplainsQualification() throws {
        let diagnostic = try only(.unknownType, in: #"{"modules": ["GreeterModule"]}"#)
        #expect(diagnostic.message.contains("qualified with their Swift module"))
    }

    @Test func typeThatIsNotAModuleIsRejected() throws {
        let diagnostic = try only(.notAModule, in: #"{"modules": ["ModuleHostTests.NotAModule"]}"#)
        #expect(diagnostic.message.contains("does not conform to ModuleProtocol"))
        #expect(diagnostic.path == "modules[0].type")
    }

    @Test func emptyFile() throws {
        let directory = try TemporaryDirectory()
        let url = try directory.write("  \n", to: "modules.json")
        let found = ModuleManager().validateManifest(at: url)
        #expect(found.map(\.code) == [.emptyFile])
        #expect(found[0].file == url.path)
        #expect(found[0].message.contains("the manifest is empty"))
    }

    @Test func missingFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("nope.json")
        do {
            try ModuleManager().registerModules(withConfigFilePath: url)
            Issue.record("expected an error")
        } catch {
            #expect(error.diagnostics.contains { $0.code == .fileNotFound })
            #expect(error.diagnostics.map(\.code) == [.fileNotFound])
            #expect(error.description.contains(url.path))
        }
    }

    @Test func directoryInsteadOfFile() throws {
        let directory = try TemporaryDirectory()
        let found = ModuleManager().validateManifest(at: directory.url)
        #expect(found.map(\.code) == [.isDirectory])
        #expect(found[0].message.contains("this is a directory"))
    }

    @Test func unsupportedVersion() throws {
        let diagnostic = try only(.unsupportedVersion, in: #"{"version": 2, "modules": []}"#)
        #expect(diagnostic.message == "manifest version 2 is not supported; this ModuleHost reads version 1")
        #expect(diagnostic.path == "version")
    }

    @Test func everyProblemIsReportedInOnePass() {
        let found = diagnostics("""
            {"version": 1, "modules": [
              "ModuleHostTests.NotAModule",
              {"type": "ModuleHostTests.Nope", "eagre": true},
              "ModuleHostTests.GreeterModule",
              {"type": "ModuleHostTests.BaseModule", "priority": "hgh", "timeout": -1}
            ]}
            """)
        let codes = Set(found.map(\.code))
        #expect(codes == [.notAModule, .unknownType, .unknownField, .invalidValue])
        #expect(found.count == 5)
    }

    @Test func startupOverridesAreRead() throws {
        let manifest = try Manifest.decode(Data("""
            {"modules": [{"type": "X.Y", "priority": "low", "timeout": 1.5, "failurePolicy": "optional",
                          "operations": {"x.op": {"priority": "idle"}}}]}
            """.utf8))
        let overrides = manifest.modules[0].startup
        #expect(overrides.priority == .low)
        #expect(overrides.timeout == .milliseconds(1500))
        #expect(overrides.failurePolicy == .optional)
        #expect(overrides.resolved(for: "x.op").priority == .idle)
        #expect(overrides.resolved(for: "x.op").timeout == .milliseconds(1500))
    }

    @Test func nothingIsRegisteredWhenAnyEntryIsInvalid() {
        let manager = ModuleManager()
        #expect(throws: ManifestError.self) {
            try manager.registerModules(from: Data(#"{"modules": ["ModuleHostTests.BaseModule", "ModuleHostTests.Nope"]}"#.utf8))
        }
        #expect(manager.modules.isEmpty)
    }
}

extension ModuleManager {
    func validateManifestData(_ json: String) -> [ManifestDiagnostic] {
        do {
            try registerModules(from: Data(json.utf8))
            return []
        } catch {
            return error.diagnostics
        }
    }
}
