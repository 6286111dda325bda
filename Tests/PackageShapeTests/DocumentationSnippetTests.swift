import Foundation
import ModuleHostTesting
import Testing

/// Every ```swift block in the README and the DocC articles is compiled (type-checked by `swiftc` against the
/// modules this test run built), so a snippet that drifts from the API fails here.
///
/// How a block is compiled:
/// - one that starts with `// swift-tools-version` is a package manifest, checked against PackageDescription;
/// - one that starts with a comment naming a file (`// Sources/…`, `// Tests/…`) is that file, checked on its own;
/// - every other block continues its document: it is checked together with the document's earlier such blocks,
///   in order, as one program (so a host snippet may use the module declared a few paragraphs before).
@Suite("Documentation snippets")
struct DocumentationSnippetTests {
    @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, "compiles snippets; proves no concurrency property"))
    func everySwiftSnippetCompiles() async throws {
        let documents = SnippetDocument.all()
        let units = documents.flatMap(\.compilationUnits)
        #expect(units.count >= 15, "found only \(units.count) snippets")
        let compiler = try #require(SnippetCompiler.locate(), "swiftc is not on PATH")
        for unit in units {
            let result = try await compiler.typecheck(unit)
            #expect(result.status == 0, "\(unit.origin) does not compile:\n\(result.stderr)\(result.stdout)")
        }
    }

    @Test func blocksAreClassifiedByTheirFirstLine() {
        let text = """
            ```swift
            // swift-tools-version: 6.0
            import PackageDescription
            ```
            ```swift
            // Sources/A/A.swift
            import ModuleHost
            ```
            ```swift
            import ModuleHost
            let manager = ModuleManager()
            ```
              ```swift
              print(manager)
              ```
            """
        let units = SnippetDocument(name: "doc.md", text: text).compilationUnits
        #expect(units.map(\.kind) == [.packageManifest, .standalone, .document])
        #expect(units.last?.source == "import ModuleHost\nlet manager = ModuleManager()\nprint(manager)\n")
        #expect(units.last?.origin == "doc.md:10, doc.md:14")
    }
}

/// A Markdown file and its ```swift blocks.
struct SnippetDocument {
    struct Block {
        let line: Int
        let source: String
    }

    let name: String
    let blocks: [Block]

    init(name: String, text: String) {
        self.name = name
        var blocks: [Block] = []
        var current: (line: Int, indent: Int, lines: [String])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop(while: { $0 == " " })
            if var open = current {
                if trimmed.hasPrefix("```") {
                    blocks.append(Block(line: open.line, source: open.lines.joined(separator: "\n") + "\n"))
                    current = nil
                } else {
                    open.lines.append(String(line.dropFirst(min(open.indent, line.prefix(while: { $0 == " " }).count))))
                    current = open
                }
            } else if trimmed == "```swift" {
                current = (index + 2, line.count - trimmed.count, [])
            }
        }
        self.blocks = blocks
    }

    /// The README, the guides in `docs/` and every DocC article (ModuleHost's and its libraries' catalogs).
    static func all() -> [SnippetDocument] {
        let root = PackageDump.root
        func markdown(in folder: String) -> [String] {
            let url = root.appendingPathComponent(folder)
            return ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
                .filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
        }
        let catalogs = ["ModuleHost"] + PackageShape.hostLibraries.sorted()
        let articles = catalogs.flatMap { markdown(in: "Sources/\($0)/\($0).docc") }
        return (["README.md"] + markdown(in: "docs") + articles).compactMap { path in
            guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else { return nil }
            return SnippetDocument(name: path, text: text)
        }
    }

    /// The programs to compile: manifests and named files alone, the rest of the document as one program.
    var compilationUnits: [SnippetUnit] {
        var units: [SnippetUnit] = []
        var continued: [Block] = []
        for block in blocks {
            let first = block.source.prefix(while: { $0 != "\n" })
            if first.hasPrefix("// swift-tools-version") {
                units.append(SnippetUnit(kind: .packageManifest, source: block.source, origin: "\(name):\(block.line)"))
            } else if first.hasPrefix("// Sources/") || first.hasPrefix("// Tests/") {
                units.append(SnippetUnit(kind: .standalone, source: block.source, origin: "\(name):\(block.line)"))
            } else {
                continued.append(block)
            }
        }
        if !continued.isEmpty {
            units.append(SnippetUnit(
                kind: .document, source: continued.map(\.source).joined(),
                origin: continued.map { "\(name):\($0.line)" }.joined(separator: ", ")))
        }
        return units
    }
}

/// One program made of snippets, and where its blocks are.
struct SnippetUnit: Equatable {
    enum Kind: Equatable { case packageManifest, standalone, document }
    let kind: Kind
    let source: String
    let origin: String
}

/// `swiftc -typecheck` against the modules of this build (the folder of the running test binary) or
/// against PackageDescription.
struct SnippetCompiler {
    let swiftc: URL
    let modules: URL
    let manifestAPI: URL

    static func locate() -> SnippetCompiler? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        guard let swiftc = path.split(separator: ":").map({ URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else { return nil }
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let modules = binary.deletingLastPathComponent().appendingPathComponent("Modules")
        let toolchain = swiftc.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        return SnippetCompiler(swiftc: swiftc, modules: modules, manifestAPI: toolchain.appendingPathComponent("lib/swift/pm/ManifestAPI"))
    }

    func typecheck(_ unit: SnippetUnit) async throws -> Subprocess.Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snippet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let isManifest = unit.kind == .packageManifest
        let file = folder.appendingPathComponent(isManifest ? "Package.swift" : "main.swift")
        try Data(unit.source.utf8).write(to: file)
        let search = isManifest
            ? ["-I", manifestAPI.path, "-package-description-version", "6.0"]
            : ["-I", modules.path]
        // A host that applies the ManifestCheck plugin names the list it generates into the build; here it is empty.
        var files = [file.path]
        if !isManifest, unit.source.contains("LinkedModuleTypes"), !unit.source.contains("enum LinkedModuleTypes") {
            let generated = folder.appendingPathComponent("LinkedModuleTypes.swift")
            try Data("import ModuleHost\nenum LinkedModuleTypes { static let byName: [String: any ModuleProtocol.Type] = [:] }\n".utf8)
                .write(to: generated)
            files.append(generated.path)
        }
        return try await Subprocess.run(swiftc, ["-typecheck", "-swift-version", "6"] + search + files, timeout: .seconds(120))
    }
}
