import Foundation
import Testing

/// What the sources import agrees with the shape: a dependency alone does not stop an `import` of a module
/// that is built anyway, so the sources are checked too.
@Suite("Source imports")
struct SourceImportTests {
    private func report(_ imports: [SwiftSource.Import], _ shape: PackageShape) -> String {
        imports.map { "  \($0) (\(shape.role(of: $0.module)))" }.joined(separator: "\n")
    }

    @Test func appShellImportsNoTargetButTheHostLibraries() async throws {
        let shape = PackageShape(try await PackageDump.current.value)
        let imports = try SwiftSource.imports(inFilesUnder: shape.sourceFolder(of: PackageShape.shell), root: PackageDump.root)
        try #require(imports.contains { $0.module == PackageShape.host },
                     "no `import ModuleHost` found in \(shape.sourceFolder(of: PackageShape.shell)); is the scan reading the shell's sources?")
        let offending = imports.filter { ![.host, .hostLibrary, .machinery, .notATarget].contains(shape.role(of: $0.module)) }
        #expect(offending.isEmpty, """
            AppShell's sources may import the host libraries (ModuleHost, ModuleHostState, ModuleHostRouting), the machinery and system modules only; the modules it links are found \
            by name at run time, through modules.json:
            \(report(offending, shape))
            """)
    }

    @Test func appShellNamesNoModulesCommand() async throws {
        let shape = PackageShape(try await PackageDump.current.value)
        var commands: Set<String> = []
        for target in shape.implementations {
            for file in try SwiftSource.files(under: shape.sourceFolder(of: target), root: PackageDump.root) {
                let text = try String(contentsOf: PackageDump.root.appending(path: file), encoding: .utf8)
                commands.formUnion(text.matches(of: /ModuleCommand\("([A-Za-z0-9._-]+)"/).map { String($0.output.1) })
            }
        }
        try #require(commands.contains("login"), "no module command found; is the scan reading the modules' sources?")
        var offending: [String] = []
        for file in try SwiftSource.files(under: shape.sourceFolder(of: PackageShape.shell), root: PackageDump.root) {
            let text = try String(contentsOf: PackageDump.root.appending(path: file), encoding: .utf8)
            // Code only (no comments), and no file names: the prompt's history file is called "history" too.
            let code = text.split(separator: "\n").filter { !$0.contains("appendingPathComponent(") }
                .map { $0.prefix { $0 != "/" } }.joined(separator: "\n")
            offending += commands.filter { code.contains("\"\($0)\"") }.map { "\(file): \"\($0)\"" }
        }
        #expect(offending.isEmpty, """
            AppShell's code names a module's command; what a command needs (a secret line, completions) belongs in its \
            declaration (ModuleCommand), so the shell knows no module's word:
            \(offending.sorted().joined(separator: "\n"))
            """)
    }

    @Test func implementationsImportNoOtherImplementation() async throws {
        let shape = PackageShape(try await PackageDump.current.value)
        var offending: [SwiftSource.Import] = []
        for target in shape.implementations {
            let folder = shape.sourceFolder(of: target)
            #expect(try !SwiftSource.files(under: folder, root: PackageDump.root).isEmpty, "no Swift files in \(folder)")
            offending += try SwiftSource.imports(inFilesUnder: folder, root: PackageDump.root)
                .filter { $0.module != target && shape.role(of: $0.module) == .implementation }
            // Machinery is used through `internal import`, so no module's interface carries it.
            offending += try SwiftSource.imports(inFilesUnder: folder, root: PackageDump.root)
                .filter { shape.role(of: $0.module) == .machinery && !$0.isInternal }
        }
        #expect(offending.isEmpty, """
            An implementation target's sources import another implementation target; use its interface \
            target and resolve the service through the bridge:
            \(report(offending, shape))
            """)
    }
}
