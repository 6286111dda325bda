import Foundation
import Testing

/// The number of public declarations of ModuleHost, and of each library built on it, is recorded in docs/API.md,
/// so the public surface only changes on purpose.
@Suite("Public API")
struct PublicAPITests {
    /// ModuleHost's line is `Public declarations: N`; each library built on it has `Public declarations of X: N`.
    @Test(arguments: ["ModuleHost"] + PackageShape.hostLibraries.sorted())
    func publicDeclarationCountMatchesDocs(library: String) throws {
        let root = PackageDump.root
        let files = try SwiftSource.files(under: "Sources/\(library)", root: root)
        try #require(!files.isEmpty, "no Swift files in Sources/\(library)")
        let actual = try files.reduce(0) { total, file in
            total + PublicAPICounter.count(in: try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8))
        }
        let label = library == PackageShape.host ? "Public declarations" : "Public declarations of \(library)"
        let page = try String(contentsOf: root.appendingPathComponent("docs/API.md"), encoding: .utf8)
        let recorded = page.split(separator: "\n").lazy.compactMap { line -> Int? in
            guard line.hasPrefix("\(label): ") else { return nil }
            return Int(line.dropFirst(label.count + 2))
        }.first
        let count = try #require(recorded, "docs/API.md has no line of the form `\(label): N`")
        #expect(actual == count, """
            docs/API.md records \(count) public declarations of \(library); the sources have \(actual). \
            If the public API changed on purpose, write `\(label): \(actual)` in docs/API.md in the same commit.
            """)
    }
}
