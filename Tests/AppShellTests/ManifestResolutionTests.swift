import Foundation
import ModuleHost
import ModuleHostTesting
import Testing

@testable import AppShell

/// The demo's own manifest resolves against the modules app-shell links, checked in one line as any package's test
/// can (``ModuleManager/expectValidManifest(at:)``); a manifest that does not resolve records located issues.
@Suite("Manifest resolution")
struct ManifestResolutionTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theDemoManifestResolves() {
        let diagnostics = ModuleManager(typeResolver: .runtime(linked: LinkedModuleTypes.byName))
            .expectValidManifest(at: Self.root.appendingPathComponent("modules.json"))
        #expect(diagnostics.allSatisfy { $0.severity != .error })
    }

    @Test func eachProblemIsAnIssueAtItsPlaceInTheManifest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-resolution-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("modules.json")
        try Data(#"{"modules": [\#n  "ClockModule.ClockModule",\#n  {"type": "NumbersModule.NumberModule"}\#n]}"#.utf8).write(to: manifest)
        var diagnostics: [ManifestDiagnostic] = []
        withKnownIssue {
            diagnostics = ModuleManager(typeResolver: .runtime(linked: LinkedModuleTypes.byName)).expectValidManifest(at: manifest)
        } matching: { issue in
            issue.sourceLocation?.line == 3 && issue.sourceLocation?.filePath == manifest.path
                && issue.comments.contains { $0.rawValue.contains("NumbersModule.NumberModule") }
        }
        #expect(diagnostics.contains { $0.severity == .error && $0.line == 3 })
    }
}
