import Foundation
import Testing

/// `modules.schema.json` is checked with a real JSON Schema validator, `check-jsonschema` (from PyPI; `.ci/run`
/// installs it): every valid manifest in the repository passes, and every invalid fixture it can express fails.
///
/// Without the validator the tests are skipped (reported as skipped), unless `MODULEHOST_REQUIRE_TOOLS=1` is set, as
/// in CI, where a missing validator fails them.
@Suite("Manifest JSON Schema")
struct ManifestSchemaTests {
    static let validator = SchemaValidator.locate()
    static let required = ProcessInfo.processInfo.environment["MODULEHOST_REQUIRE_TOOLS"] == "1"

    @Test(.enabled(if: validator != nil || required, "check-jsonschema is not installed (pip install check-jsonschema)"))
    func theSchemaIsAValidDraft2020Schema() async throws {
        let validator = try #require(Self.validator, "check-jsonschema is required (MODULEHOST_REQUIRE_TOOLS=1) but not on PATH")
        let result = try await validator.run(["--check-metaschema", SchemaValidator.schema.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test(.enabled(if: validator != nil || required, "check-jsonschema is not installed (pip install check-jsonschema)"))
    func everyValidManifestPassesAndEveryInvalidFixtureFails() async throws {
        let validator = try #require(Self.validator, "check-jsonschema is required (MODULEHOST_REQUIRE_TOOLS=1) but not on PATH")
        let valid = SchemaValidator.validManifests()
        let invalid = SchemaValidator.fixtures("invalid")
        #expect(valid.count >= 10, "found only \(valid.map(\.lastPathComponent))")
        #expect(invalid.count >= 25, "found only \(invalid.map(\.lastPathComponent))")

        let report = try await validator.validate(valid + invalid)
        #expect(report.parseErrors.isEmpty, "files that are not JSON: \(report.parseErrors)")
        let rejected = Set(report.rejectedFiles.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        for file in valid {
            #expect(!rejected.contains(file.path), "the schema rejects a valid manifest: \(file.path)")
        }
        for file in invalid {
            #expect(rejected.contains(file.path), "the schema accepts an invalid manifest: \(file.path)")
        }
    }
}

/// Finds and runs `check-jsonschema` against `modules.schema.json`.
struct SchemaValidator {
    let executable: URL

    static let root = PackageDump.root
    static let schema = root.appendingPathComponent("modules.schema.json")

    /// The validator on `PATH`, if any.
    static func locate() -> SchemaValidator? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("check-jsonschema")
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return SchemaValidator(executable: candidate)
            }
        }
        return nil
    }

    /// The repository's own manifests (the root one, the examples') and the valid fixtures under `Tests/Fixtures`.
    static func validManifests() -> [URL] {
        var files = [root.appendingPathComponent("modules.json")]
        let examples = root.appendingPathComponent("Examples")
        let children = (try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []
        for child in children.sorted() {
            let manifest = examples.appendingPathComponent(child).appendingPathComponent("modules.json")
            if FileManager.default.fileExists(atPath: manifest.path) { files.append(manifest) }
        }
        return (files + fixtures("valid")).map(\.standardizedFileURL)
    }

    /// The fixture manifests in `Tests/Fixtures/Manifests/<kind>`.
    static func fixtures(_ kind: String) -> [URL] {
        let folder = root.appendingPathComponent("Tests/Fixtures/Manifests").appendingPathComponent(kind)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0).standardizedFileURL }
    }

    func run(_ arguments: [String]) async throws -> Subprocess.Result {
        try await Subprocess.run(executable, arguments, timeout: .seconds(120))
    }

    /// What one validator run found: the files with schema errors, and the files that did not parse.
    struct Report: Decodable {
        struct Failure: Decodable { let filename: String }
        let errors: [Failure]
        let parseErrors: [Failure]
        var rejectedFiles: [String] { errors.map(\.filename) }

        enum CodingKeys: String, CodingKey {
            case errors
            case parseErrors = "parse_errors"
        }
    }

    /// Validates every file in one process and decodes its JSON report.
    func validate(_ files: [URL]) async throws -> Report {
        let result = try await run(["--output-format", "json", "--schemafile", Self.schema.path] + files.map(\.path))
        return try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
    }
}
