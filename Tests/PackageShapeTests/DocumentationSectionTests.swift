import Foundation
import Testing

/// Every public function, initializer and operator of the library products documents what it takes, returns and
/// throws: a `- Parameter`/`- Parameters` section when it has parameters, `- Returns` when a function returns a
/// value, and `- Throws` when it throws. (41 of 75 such functions once had no `- Parameter` section.)
@Suite("Documentation sections")
struct DocumentationSectionTests {
    static let libraries = ["ModuleHost", "ModuleHostState", "ModuleHostRouting", "ModuleHostTesting", "ModuleHostSeed"]

    /// A public `func`, `init` or `subscript` declaration, with its modifiers and attributes before it.
    static var declaration: Regex<(Substring, Substring)> {
        #/^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:static|final|override|mutating|nonisolated|convenience|required|class)\s+)*(func|init|subscript)\b/#
    }

    /// The sections each public declaration in `source` lacks, as `line: sections: declaration`.
    static func missingSections(in source: String) -> [String] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var missing: [String] = []
        for (index, line) in lines.enumerated() {
            guard line.contains("public") || line.contains("open"), let match = line.firstMatch(of: declaration) else { continue }
            let kind = match.output.1
            // The signature: up to the body's `{` (or 12 lines, for a requirement without a body).
            var signature = line
            var next = index + 1
            while !signature.contains("{"), next < lines.count, next - index <= 12 {
                signature += " " + lines[next].trimmingCharacters(in: .whitespaces)
                next += 1
            }
            let head = String(signature.prefix { $0 != "{" })
            let (parameters, rest) = Self.parameterList(of: head, after: String(kind))
            var doc: [String] = []
            var above = index - 1
            while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///") || lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@") {
                doc.append(lines[above])
                above -= 1
            }
            let comment = doc.joined(separator: "\n")
            var lacks: [String] = []
            if kind != "subscript", !parameters.trimmingCharacters(in: .whitespaces).isEmpty, !comment.contains("- Parameter") { lacks.append("Parameters") }
            if rest.firstMatch(of: #/^\s*(async\s+)?(throws|rethrows)/#) != nil, !comment.contains("- Throws") { lacks.append("Throws") }
            if kind == "func", let result = rest.firstMatch(of: #/->\s*(.+)$/#),
               result.output.1.trimmingCharacters(in: .whitespaces).wholeMatch(of: #/Void|\(\)/#) == nil, !comment.contains("- Returns") {
                lacks.append("Returns")
            }
            if !lacks.isEmpty { missing.append("\(index + 1): \(lacks.joined(separator: ", ")): \(line.trimmingCharacters(in: .whitespaces))") }
        }
        return missing
    }

    /// The text between the parentheses that follow the declaration's name (its generic clause skipped), and what
    /// follows them.
    static func parameterList(of head: String, after kind: String) -> (parameters: String, rest: String) {
        let characters = Array(head)
        guard let keyword = head.range(of: kind) else { return ("", "") }
        var index = head.distance(from: head.startIndex, to: keyword.upperBound)
        var angle = 0
        while index < characters.count, characters[index] != "(" || angle > 0 {
            if characters[index] == "<" { angle += 1 }
            if characters[index] == ">" { angle -= 1 }
            index += 1
        }
        guard index < characters.count else { return ("", "") }
        var depth = 0
        let open = index
        while index < characters.count {
            if characters[index] == "(" { depth += 1 }
            if characters[index] == ")" {
                depth -= 1
                if depth == 0 { break }
            }
            index += 1
        }
        let close = min(index, characters.count)
        return (String(characters[(open + 1)..<close]), close + 1 < characters.count ? String(characters[(close + 1)...]) : "")
    }

    @Test func everyPublicFunctionDocumentsItsParametersResultAndErrors() throws {
        var missing: [String] = [], checked = 0
        for library in Self.libraries {
            for file in try SwiftSource.files(under: "Sources/\(library)", root: PackageDump.root) {
                let source = try String(contentsOf: PackageDump.root.appendingPathComponent(file), encoding: .utf8)
                checked += source.split(separator: "\n").filter { $0.contains("public") && $0.firstMatch(of: Self.declaration) != nil }.count
                missing += Self.missingSections(in: source).map { "\(file):\($0)" }
            }
        }
        #expect(checked >= 80, "too few public functions found: \(checked)")
        #expect(missing.isEmpty, "document these:\n\(missing.joined(separator: "\n"))")
    }

    @Test func theCheckSeesWhatIsMissing() {
        let source = """
            /// Adds.
            public func add(_ a: Int, to b: Int) throws(E) -> Int { a + b }
            /// Documented.
            ///
            /// - Parameter generic: A value.
            /// - Returns: It.
            @discardableResult
            public static func pass<T: Sendable>(_ generic: T) -> T { generic }
            /// Nothing to say.
            public func run() async {}
            """
        #expect(Self.missingSections(in: source) == ["2: Parameters, Throws, Returns: public func add(_ a: Int, to b: Int) throws(E) -> Int { a + b }"])
    }
}
