import Foundation
import Testing

/// The repository's text stands on its own: no source, test or document points at an issue tracker its readers do
/// not have (an issue named by its number); it states the decision itself.
@Suite("No tracker references")
struct TrackerReferenceTests {
    /// "issue", optionally plural, then a number (this line does not match itself: no space follows the word).
    static var reference: Regex<Substring> { #/(?i)\bissues?\s+#?[0-9]+/# }

    /// Files under these folders, and these files, are read (build folders skipped).
    static let folders = ["Sources", "Tests", "docs", "Examples", "Integrations", "Benchmarks", "Fuzz", "Plugins", "Scripts"]
    static let files = ["README.md", "CONTRIBUTING.md", "Package.swift"]

    private func texts() throws -> [(path: String, text: String)] {
        let root = PackageDump.root
        var paths = Self.files
        for folder in Self.folders {
            guard let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { continue }
            for case let path as String in enumerator
            where !path.split(separator: "/").contains(where: { $0.hasPrefix(".build") })
                && [".swift", ".md", ".sh"].contains(where: path.hasSuffix) {
                paths.append("\(folder)/\(path)")
            }
        }
        return try paths.map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test func noFileNamesAnIssueByNumber() throws {
        let texts = try texts()
        #expect(texts.count > 300, "too few files read: \(texts.count)")
        var found: [String] = []
        for (path, text) in texts {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(Self.reference) {
                found.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "say what was decided instead:\n\(found.joined(separator: "\n"))")
    }

    @Test func theCheckSeesAReference() {
        #expect(("as Issue" + " 16 said").contains(Self.reference))
        #expect(("(issues" + " 12 and 25)").contains(Self.reference))
        #expect(!"an issue with 3 parts".contains(Self.reference))
        #expect(!"the issue's own case".contains(Self.reference))
    }
}
