#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
import Testing

extension ModuleManager {
    /// Checks the manifest at `url` against the module types this process links, as registering it for a run
    /// would (types, required modules, services, contributions, configurations; plugin libraries are inspected, not
    /// loaded), and records each error as a test issue located at its line and column in the manifest. One line in
    /// a package's test:
    ///
    /// ```swift
    /// @Test func theManifestResolves() {
    ///     ModuleManager().expectValidManifest(at: URL(fileURLWithPath: "modules.json"))
    /// }
    /// ```
    ///
    /// - Parameter url: The manifest file.
    /// - Returns: Every diagnostic, warnings included (warnings are not recorded as issues).
    @discardableResult
    public func expectValidManifest(at url: URL) -> [ManifestDiagnostic] {
        let diagnostics = validateManifest(at: url)
        for diagnostic in diagnostics where diagnostic.severity == .error {
            let location = SourceLocation(fileID: "manifest/\(url.lastPathComponent)", filePath: diagnostic.file ?? url.path,
                                          line: max(diagnostic.line ?? 1, 1), column: max(diagnostic.column ?? 1, 1))
            Issue.record(Comment(rawValue: diagnostic.description), sourceLocation: location)
        }
        return diagnostics
    }
}
