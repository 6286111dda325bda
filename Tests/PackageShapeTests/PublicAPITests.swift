import Foundation
import Testing

/// The number of public declarations of ModuleHost is recorded in docs/API.md, so the public surface only
/// changes on purpose.
@Suite("Public API")
struct PublicAPITests {
    @Test func publicDeclarationCountMatchesDocs() throws {
        let root = PackageDump.root
        let files = try SwiftSource.files(under: "Sources/ModuleHost", root: root)
        try #require(!files.isEmpty, "no Swift files in Sources/ModuleHost")
        let actual = try files.reduce(0) { total, file in
            total + PublicAPICounter.count(in: try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8))
        }
        let page = try String(contentsOf: root.appendingPathComponent("docs/API.md"), encoding: .utf8)
        let line = #/^Public declarations: (\d+)$/#.anchorsMatchLineEndings()
        let recorded = try #require(page.firstMatch(of: line).flatMap { Int($0.1) },
                                    "docs/API.md has no line of the form `Public declarations: N`")
        #expect(actual == recorded, """
            docs/API.md records \(recorded) public declarations of ModuleHost; the sources have \(actual). \
            If the public API changed on purpose, write `Public declarations: \(actual)` in docs/API.md in the same commit.
            """)
    }
}
