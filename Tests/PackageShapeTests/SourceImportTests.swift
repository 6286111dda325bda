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
        let offending = imports.filter { ![.host, .hostLibrary, .notATarget].contains(shape.role(of: $0.module)) }
        #expect(offending.isEmpty, """
            AppShell's sources may import the host libraries (ModuleHost, ModuleHostState, ModuleHostRouting) and system modules only; the modules it links are found \
            by name at run time, through modules.json:
            \(report(offending, shape))
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
        }
        #expect(offending.isEmpty, """
            An implementation target's sources import another implementation target; use its interface \
            target and resolve the service through the bridge:
            \(report(offending, shape))
            """)
    }
}
