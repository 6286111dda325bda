import Foundation
import Testing

/// The signs a newcomer follows point somewhere: every file path that the README, `docs/`, the DocC articles and
/// the separate packages' READMEs name exists, and every test that docs/PROMISES.md cites exists.
///
/// What counts as a named path: an inline code span or a link target, outside fenced code blocks (a block's
/// `// Sources/…` first line names a file of the reader's own package, and the snippet test compiles it), with at
/// least one `/`, that ends in a known extension or a `/`, or starts with a folder of the repository or of the
/// article's target. Double-backtick spans are symbol links, which DocC checks. A path resolves when it exists
/// relative to the document's folder, its package, the repository, or (for an article) its target or `Sources/`
/// or `Tests/`.
@Suite("Documentation references")
struct DocumentationReferenceTests {
    static let root = PackageDump.root

    /// Paths that a document names but the repository does not hold, each for a reason stated here.
    static let notInTheRepository: [(path: String, reason: String)] = [
        ("Sources/Greeter", "Getting started: the reader's own package"),
        ("Sources/MyApp", "Getting started: the reader's own package"),
        ("Sources/Notes", "Adding a module: what add-module writes in the reader's package"),
        ("Tests/NotesModuleTests", "Adding a module: what add-module writes in the reader's package"),
        ("Fuzz/work-corpus", "written by a fuzzing run"),
        ("Fuzz/artifacts", "written by a fuzzing run"),
        (".app-shell/", "app-shell's state folder, written at run time"),
    ]

    /// Records of the past: the paths they name are the tree of their time.
    static let histories: Set<String> = ["docs/PERFORMANCE-HISTORY.md", "docs/API-CHANGELOG.md"]

    static let repositoryFolders: Set<String> = ["Sources", "Tests", "docs", "Scripts", "Benchmarks", "Fuzz", "Examples",
                                                 "Integrations", "Plugins", ".ci"]
    static let extensions: Set<String> = ["swift", "md", "json", "sh", "c", "h", "yml", "txt", "docc"]

    /// The documents read: relative paths from the repository's root.
    static func documents() -> [String] {
        var paths = ["README.md", "CONTRIBUTING.md", "Benchmarks/README.md", "Fuzz/README.md"]
        let manager = FileManager.default
        func children(_ folder: String) -> [String] {
            ((try? manager.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []).sorted()
                .map { "\(folder)/\($0)" }
        }
        paths += children("docs").filter { $0.hasSuffix(".md") }
        for target in children("Sources") {
            paths += children(target).filter { $0.hasSuffix("CONTRACT.md") }
            for catalog in children(target) where catalog.hasSuffix(".docc") {
                paths += children(catalog).filter { $0.hasSuffix(".md") }
            }
        }
        for folder in ["Integrations", "Examples"] {
            paths += children(folder).map { "\($0)/README.md" }
        }
        return paths.filter { manager.fileExists(atPath: root.appendingPathComponent($0).path) }
    }

    /// A document's text without its fenced code blocks and its double-backtick symbol links.
    static func prose(_ text: String) -> String {
        var kept: [Substring] = [], fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); continue }
            if !fenced { kept.append(line) }
        }
        return kept.joined(separator: "\n").replacing(#/``[^`\n]+``/#, with: "")
    }

    /// The paths a document names, in order.
    static func namedPaths(in text: String, targetFolders: Set<String>) -> [String] {
        let prose = prose(text)
        let spans = prose.matches(of: #/`([^`\n]+)`/#).map { String($0.output.1) }
            + prose.matches(of: #/\]\(([^)#\s]+)/#).map { String($0.output.1) }
        return spans.filter { span in
            guard !span.contains("://"), span.wholeMatch(of: #/\.{0,2}[A-Za-z0-9_.+-]+(/[A-Za-z0-9_.+-]+)+/?/#) != nil else {
                return false
            }
            let components = span.split(separator: "/")
            let last = components.last.map(String.init) ?? ""
            let pathExtension = last.contains(".") ? String(last.split(separator: ".").last ?? "") : ""
            let first = String(components.first ?? "")
            return extensions.contains(pathExtension) || span.hasSuffix("/") || repositoryFolders.contains(first)
                || targetFolders.contains(first)
        }
    }

    /// The folders a path in `document` may be relative to.
    static func bases(of document: String) -> [String] {
        let folder = (document as NSString).deletingLastPathComponent
        var package = folder
        while !package.isEmpty, !FileManager.default.fileExists(atPath: root.appendingPathComponent("\(package)/Package.swift").path) {
            package = (package as NSString).deletingLastPathComponent
        }
        var bases = [folder, package, ""]
        if let catalog = folder.range(of: ".docc") {
            bases += [(String(folder[..<catalog.lowerBound]) as NSString).deletingLastPathComponent, "Sources", "Tests"]
        }
        return bases
    }

    static func subfolders(of folder: String) -> Set<String> {
        let url = root.appendingPathComponent(folder)
        return Set(((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path, isDirectory: &isFolder) && isFolder.boolValue
        })
    }

    /// The paths a document names, and each of them that resolves nowhere (as `document: path`).
    static func check(_ document: String, text: String) -> (named: Int, missing: [String]) {
        guard !histories.contains(document) else { return (0, []) }
        let bases = bases(of: document)
        let targetFolders = bases.dropFirst(3).first.map(subfolders(of:)) ?? []
        let named = namedPaths(in: text, targetFolders: targetFolders)
        let missing = named.filter { path in
            !notInTheRepository.contains { path.hasPrefix($0.path) } && !isInAnAbsentPackage(path, from: document)
                && !bases.contains { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).appendingPathComponent(path).path) }
        }
        return (named.count, missing.map { "\(document): \($0)" })
    }

    /// The separate packages (`Benchmarks/`, `Fuzz/`, `Examples/`, `Integrations/`), which a copy of the package
    /// alone may leave out (as *Adding a module*'s test does): a path into one that is absent is not checked there.
    /// A clone has them all, so there every path is checked.
    static let separatePackages: Set<String> = ["Benchmarks", "Fuzz", "Examples", "Integrations"]

    static func isInAnAbsentPackage(_ path: String, from document: String) -> Bool {
        let resolved = path.hasPrefix("../") ? String(path.dropFirst(3)) : path
        guard let first = resolved.split(separator: "/").first.map(String.init), separatePackages.contains(first) else { return false }
        return !FileManager.default.fileExists(atPath: root.appendingPathComponent(first).path)
    }

    @Test func everyPathTheDocumentsNameExists() throws {
        let documents = Self.documents()
        #expect(documents.count >= 25, "too few documents read: \(documents)")
        var named = 0, missing: [String] = []
        for document in documents {
            let found = Self.check(document, text: try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8))
            named += found.named
            missing += found.missing
        }
        #expect(named >= 100, "too few paths found: \(named)")
        #expect(missing.isEmpty, "named but not in the repository:\n\(missing.joined(separator: "\n"))")
    }

    @Test func everyExceptionIsNeeded() throws {
        let texts = try Self.documents().filter { !Self.histories.contains($0) }
            .map { try String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8) }
        for exception in Self.notInTheRepository where !Self.isInAnAbsentPackage(exception.path, from: "") {
            #expect(texts.contains { $0.contains(exception.path) }, "no document names \(exception.path) any more")
        }
    }

    /// Each test that PROMISES.md cites: `Suite.test`, `Suite`, or a bare `test` after a suite in the same
    /// parenthesis, which names a test of that suite.
    static func citations(in text: String) -> [(suite: String, test: String?)] {
        var citations: [(String, String?)] = [], suite: String?
        let parts = prose(text).split(separator: "`", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            guard index % 2 == 1 else {
                if part.contains(")") { suite = nil }
                continue
            }
            if let match = part.wholeMatch(of: #/([A-Z][A-Za-z0-9]*Tests)(?:\.([A-Za-z0-9_]+))?/#) {
                suite = String(match.output.1)
                citations.append((String(match.output.1), match.output.2.map(String.init)))
            } else if let suite, part.wholeMatch(of: #/[a-z][A-Za-z0-9_]+/#) != nil {
                citations.append((suite, String(part)))
            }
        }
        return citations
    }

    /// The test sources of the package, the integrations and the example: a suite's name and each text that
    /// declares or extends it.
    static func testSources() throws -> [String: [String]] {
        var sources: [String: [String]] = [:]
        for folder in ["Tests", "Integrations", "Examples"] {
            guard let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { continue }
            for case let path as String in enumerator
            where path.hasSuffix(".swift") && !path.contains(".build") && (folder == "Tests" || path.contains("/Tests/")) {
                let text = try String(contentsOf: root.appendingPathComponent("\(folder)/\(path)"), encoding: .utf8)
                for match in text.matches(of: #/(?:struct|extension|class|enum)\s+([A-Z][A-Za-z0-9]*Tests)\b/#) {
                    sources[String(match.output.1), default: []].append(text)
                }
            }
        }
        return sources
    }

    static func missingCitations(_ citations: [(suite: String, test: String?)], in sources: [String: [String]]) -> [String] {
        citations.compactMap { citation in
            guard let texts = sources[citation.suite] else { return "\(citation.suite): no such suite" }
            guard let test = citation.test else { return nil }
            let declaration = try? Regex("func\\s+\(test)\\b")
            return texts.contains { text in declaration.map { text.contains($0) } ?? false } ? nil : "\(citation.suite).\(test)"
        }
    }

    @Test func everyTestPromisesCitesExists() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/PROMISES.md"), encoding: .utf8)
        let citations = Self.citations(in: text)
        #expect(citations.count >= 100, "too few citations read: \(citations.count)")
        let missing = Self.missingCitations(citations, in: try Self.testSources())
        #expect(missing.isEmpty, "PROMISES.md cites tests that do not exist:\n\(missing.joined(separator: "\n"))")
    }

    @Test func theChecksSeeAMiss() throws {
        let document = "Sources/ModuleHost/ModuleHost.docc/Made-up.md"
        let text = """
            See `Manager/ModuleManager.swift`, `Manager/NoSuchFile.swift`, `Sources/Nowhere/` and `/auth/user`.
            ```swift
            // Sources/InABlock/File.swift
            ```
            ``Initiator/Event`` is a symbol.
            """
        #expect(Self.check(document, text: text).missing == ["\(document): Manager/NoSuchFile.swift", "\(document): Sources/Nowhere/"])
        let promises = "(`ModuleManagerTests.noSuchTest`, `alsoMissing`). Not a test: `validate` (`ModuleManagerTests`)."
        let citations = Self.citations(in: promises)
        #expect(citations.map { "\($0.suite).\($0.test ?? "")" } == ["ModuleManagerTests.noSuchTest", "ModuleManagerTests.alsoMissing", "ModuleManagerTests."])
        #expect(Self.missingCitations(citations, in: ["ModuleManagerTests": ["@Test func realTest() {}"]])
                == ["ModuleManagerTests.noSuchTest", "ModuleManagerTests.alsoMissing"])
    }
}
