import Foundation
import Testing

/// A library built on ModuleHost (``PackageShape/hostLibraries``) crosses the plugin boundary as ModuleHost does, so
/// the two places that make that safe must name it: the ABI identity's sources (the ABIIdentityGenerator plugin's
/// `companionLibraries`) and the symbols a plugin takes from the host (`HostExports.hostLibraries`). A library added to the shape and forgotten there fails here, instead of letting a plugin built
/// against another copy of it load.
@Suite("Host libraries")
struct HostLibraryTests {
    private func text(_ path: String) throws -> String {
        try String(contentsOf: PackageDump.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func everyHostLibraryIsInTheABIIdentityAndTheHostsSymbols() throws {
        let plugin = try text("Plugins/ABIIdentityGenerator/ABIIdentityGenerator.swift")
        let exports = try text("Sources/ModuleHost/Plugins/HostExports.swift")
        #expect(!PackageShape.hostLibraries.isEmpty)
        for library in PackageShape.hostLibraries.sorted() {
            #expect(plugin.contains("\"\(library)\""), "ABIIdentityGenerator's companionLibraries does not name \(library)")
            #expect(exports.contains("\"\(library)\""), "HostExports.hostLibraries does not name \(library)")
        }
    }

    /// The other places that list the host libraries: CI converts each one's DocC catalog, and the drift host that
    /// plugin tests build copies each one's interface (a plugin may import any of them).
    @Test func everyHostLibraryHasItsCatalogConvertedAndItsInterfaceGivenToPlugins() throws {
        let ci = try text(".ci/run")
        let catalogs = try #require(ci.split(separator: "\n").first { $0.hasPrefix("for library in ") && $0.contains("; do") },
                                    "no `for library in …; do` loop over the catalogs in .ci/run")
        let drift = try text("Tests/AppShellSlowTests/DriftHost.swift")
        for library in PackageShape.hostLibraries.sorted() {
            #expect(catalogs.split(separator: " ").contains { $0 == library || $0 == "\(library);" },
                    ".ci/run does not convert \(library)'s DocC catalog: \(catalogs)")
            #expect(FileManager.default.fileExists(atPath: PackageDump.root.appendingPathComponent("Sources/\(library)/\(library).docc").path),
                    "no DocC catalog Sources/\(library)/\(library).docc")
            #expect(drift.contains("\"\(library)\""), "DriftHost does not copy \(library)'s interface for plugins")
        }
    }
}
