import Foundation
import Testing
@testable import ModuleHost

/// The manifest reader and `modules.schema.json` agree on the fixtures in `Tests/Fixtures/Manifests`: the reader
/// accepts the structure of every valid one and reports an error for every invalid one (the schema side is in
/// PackageShapeTests' `ManifestSchemaTests`).
@Suite("Manifest fixtures")
struct ManifestFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/Manifests")

    static func files(_ kind: String) -> [URL] {
        let directory = folder.appendingPathComponent(kind)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test func theReaderAcceptsTheStructureOfEveryValidFixture() {
        let files = Self.files("valid")
        #expect(files.count >= 8)
        for file in files {
            let result = ManifestReader.read(contentsOf: file)
            #expect(result.manifest != nil && !result.sink.hasErrors, "\(file.lastPathComponent): \(result.diagnostics)")
        }
    }

    @Test func theReaderReportsAnErrorForEveryInvalidFixture() {
        let files = Self.files("invalid")
        #expect(files.count >= 20)
        for file in files {
            let result = ManifestReader.read(contentsOf: file)
            #expect(result.sink.hasErrors, "\(file.lastPathComponent) was accepted")
        }
    }
}
