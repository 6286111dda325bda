import Foundation
import Testing
import TestSupport
@testable import ModuleHost
@testable import ModuleHostJSON

/// Hostile manifests: each must be rejected with one clear diagnostic, never crash or hang.
/// The tests assert on codes and messages only, never on time.
///
/// Came from Regression/ (added in 8af188f, during the fuzzing campaign);
/// now filed under the feature it protects.
@Suite("Hostile manifests")
struct HostileManifestTests {
    private func errors(_ data: Data, file: String? = "modules.json") -> [ManifestDiagnostic] {
        do {
            try ModuleManager().registerModules(from: data, file: file)
            Issue.record("expected the manifest to be rejected")
            return []
        } catch {
            return error.errors
        }
    }

    @Test func nestingOneHundredThousandLevelsNamesTheNestingLimit() throws {
        let depth = 100_000
        let json = #"{"modules": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let found = errors(Data(json.utf8))
        try #require(found.count == 1, "\(found)")
        #expect(found[0].code == .malformedJSON)
        #expect(found[0].message == "malformed JSON: nesting deeper than \(JSONParser.maximumDepth) levels")
        // The root object is level 1, so the parser stops at the 512th '[' (column 13 + 511).
        #expect(found[0].location == ManifestDiagnostic.Location(line: 1, column: 13 + JSONParser.maximumDepth - 1))
    }

    @Test func nestingInsideAConfigObjectIsBoundedToo() throws {
        let depth = 100_000
        let json = #"{"modules": [{"type": "ModuleHostTests.ConfiguredModule", "config": "#
            + String(repeating: #"{"a": "#, count: depth) + "1" + String(repeating: "}", count: depth) + "}]}"
        let found = errors(Data(json.utf8))
        try #require(found.count == 1, "\(found)")
        #expect(found[0].code == .malformedJSON)
        #expect(found[0].message.contains("nesting deeper than \(JSONParser.maximumDepth) levels"))
    }

    @Test func binaryDataIsMalformedJSON() throws {
        let found = errors(Data((0...255).map { UInt8($0) }))
        try #require(found.count == 1, "\(found)")
        #expect(found[0].code == .malformedJSON)
        #expect(found[0].message == "malformed JSON: expected a value, found byte 0x0")
        #expect(found[0].location == ManifestDiagnostic.Location(line: 1, column: 1))
    }

    @Test func invalidUTF8InATypeNameIsMalformedJSON() throws {
        let bytes = Array(#"{"modules": [""#.utf8) + [0xFF, 0xFE, 0x41] + Array(#""]}"#.utf8)
        let found = errors(Data(bytes))
        try #require(found.count == 1, "\(found)")
        #expect(found[0].code == .malformedJSON)
        #expect(found[0].message == "malformed JSON: invalid UTF-8 in string")
    }

    @Test func utf16ManifestIsMalformedJSON() throws {
        // A UTF-16LE file with its byte order mark, as some Windows editors save it.
        let text = #"{"modules": []}"#
        let bytes: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let found = errors(Data(bytes))
        try #require(found.count == 1, "\(found)")
        #expect(found[0].code == .malformedJSON)
        #expect(found[0].message == "malformed JSON: expected a value, found byte 0xFF")
    }

    @Test func twentyMegabyteDataExceedsTheSizeLimit() throws {
        // A syntactically valid manifest padded with a 20 MB string: rejected for its size before parsing.
        let size = 20 << 20
        let prefix = #"{"modules": [], "padding": ""#, suffix = #""}"#
        let json = prefix + String(repeating: "x", count: size - prefix.utf8.count - suffix.utf8.count) + suffix
        let found = errors(Data(json.utf8))
        try #require(found.count == 1, "\(found)")
        #expect(found[0].code == .fileTooLarge)
        #expect(found[0].message == "the manifest is \(size) bytes; the limit is \(ManifestReader.maximumFileSize)")
        #expect(found[0].message.contains("8388608"))
    }

    @Test func twentyMegabyteFileExceedsTheSizeLimit() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("modules.json")
        try Data(repeating: UInt8(ascii: "["), count: 20 << 20).write(to: url)
        do {
            try ModuleManager().registerModules(withConfigFilePath: url)
            Issue.record("expected the manifest to be rejected")
        } catch {
            #expect(error.errors.map(\.code) == [.fileTooLarge])
            #expect(error.errors.first?.message == "the file is \(20 << 20) bytes; manifests are limited to \(ManifestReader.maximumFileSize) bytes")
            #expect(error.description.contains(url.path))
        }
    }

    @Test func dataJustAtTheSizeLimitIsParsed() throws {
        // The limit itself is accepted: this fails on the JSON (an unterminated array), not on the size.
        let found = errors(Data(repeating: UInt8(ascii: " "), count: ManifestReader.maximumFileSize - 1) + Data("[".utf8))
        #expect(found.map(\.code) == [.malformedJSON])
    }

    @Test func classesThatAreNotModulesAreNamed() throws {
        let found = errors(Data(#"{"modules": ["Foundation.NSObject", "Swift.Int", "ModuleHostTests.NotAModule"]}"#.utf8))
        #expect(found.map(\.code) == [.notAModule, .notAModule, .notAModule])
        #expect(found.map(\.path) == ["modules[0].type", "modules[1].type", "modules[2].type"])
        for (diagnostic, name) in zip(found, ["Foundation.NSObject", "Swift.Int", "ModuleHostTests.NotAModule"]) {
            #expect(diagnostic.message == "\"\(name)\" exists but does not conform to ModuleProtocol; it will not be instantiated")
        }
    }

    /// A disabled entry may name a module this build does not link: no warning, and the rest registers.
    @Test func aDisabledEntryWhoseTypeIsNotLinkedIsNoProblem() throws {
        let warnings = try ModuleManager().registerModules(from: Data("""
            {"modules": [{"type": "Missing.FeatureModule", "enabled": false}, "ModuleHostTests.BaseModule"]}
            """.utf8))
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test func disabledEntriesNamingNonModulesAreOnlyWarnings() throws {
        let warnings = try ModuleManager().registerModules(from: Data("""
            {"modules": [{"type": "Foundation.NSObject", "enabled": false}, "ModuleHostTests.BaseModule"]}
            """.utf8))
        #expect(warnings.map(\.code) == [.notAModule])
        #expect(warnings.map(\.severity) == [.warning])
    }
}
