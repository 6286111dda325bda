import Foundation
import Testing

/// The product's sources import FoundationEssentials where it exists; plain Foundation only in
/// the `#else` branch of `#if canImport(FoundationEssentials)` (Apple platforms). Tests may use Foundation.
@Suite("Foundation imports")
struct FoundationImportTests {
    @Test func everySourceImportsFoundationEssentialsWhereItExists() throws {
        let sources = PackageDump.root.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var checked = 0
        var offenders: [String] = []
        for case let path as String in enumerator where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            checked += 1
            var conditions: [String] = []
            for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                if line.hasPrefix("#if ") { conditions.append(line) }
                else if line.hasPrefix("#else"), let last = conditions.popLast() { conditions.append("else of " + last) }
                else if line.hasPrefix("#endif") { _ = conditions.popLast() }
                else if line == "import Foundation", conditions.last != "else of #if canImport(FoundationEssentials)" {
                    offenders.append(path)
                }
            }
        }
        #expect(checked > 50)
        #expect(offenders.isEmpty, "import Foundation outside `#if canImport(FoundationEssentials) … #else`: \(offenders)")
    }
}
