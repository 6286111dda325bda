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
}
