import Foundation
import Testing

/// The number of public declarations of ModuleHost, and of each library built on it, is recorded in docs/API.md,
/// so the public surface only changes on purpose.
@Suite("Public API")
struct PublicAPITests {
    /// Each library product has a row `| Public declarations of X | budget | N |` in docs/API.md's budget table.
    @Test(arguments: APIBudgetTests.products)
    func publicDeclarationCountMatchesDocs(library: String) throws {
        let root = PackageDump.root
        let files = try SwiftSource.files(under: "Sources/\(library)", root: root)
        try #require(!files.isEmpty, "no Swift files in Sources/\(library)")
        let actual = try files.reduce(0) { total, file in
            total + PublicAPICounter.count(in: try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8))
        }
        let label = "Public declarations of \(library)"
        let page = try String(contentsOf: root.appendingPathComponent("docs/API.md"), encoding: .utf8)
        let recorded = page.split(separator: "\n").lazy.compactMap { line -> Int? in
            guard line.hasPrefix("| \(label) |") else { return nil }
            return line.split(separator: "|").last.flatMap { Int($0.filter(\.isNumber)) }
        }.first
        let count = try #require(recorded, "docs/API.md has no row of the form `| \(label) | budget | N |`")
        #expect(actual == count, """
            docs/API.md records \(count) public declarations of \(library); the sources have \(actual). \
            If the public API changed on purpose, write \(actual) in the row `\(label)` of docs/API.md in the same commit.
            """)
    }
}
