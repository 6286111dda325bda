import Foundation
import Testing

/// A library built on ModuleHost (``PackageShape/hostLibraries``) crosses the plugin boundary as ModuleHost does, and
/// so does an interface target, so the places that make that safe must name it: its own ABI identity (it applies the
/// ABIIdentityGenerator plugin) and, for a host library, the symbols a plugin takes from the host
/// (`HostExports.hostLibraries`). A module added to the shape and forgotten there fails here, instead of letting a
/// plugin built against another copy of it load.
@Suite("Host libraries")
struct HostLibraryTests {
    private func text(_ path: String) throws -> String {
        try String(contentsOf: PackageDump.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func everyHostLibraryIsInTheHostsSymbols() throws {
        let exports = try text("Sources/ModuleHost/Plugins/HostExports.swift")
        #expect(!PackageShape.hostLibraries.isEmpty)
        for library in PackageShape.hostLibraries.sorted() {
            #expect(exports.contains("\"\(library)\""), "HostExports.hostLibraries does not name \(library)")
        }
    }

    @Test func everyModuleAPluginMayCompileAgainstHasItsOwnABIIdentity() async throws {
        let shape = PackageShape(try await PackageDump.current.value)
        let covered = [PackageShape.host] + PackageShape.hostLibraries.sorted() + shape.interfaces
        try #require(shape.interfaces.contains("ClockInterface"), "no interface target found: \(shape.interfaces)")
        for name in covered {
            let target = try #require(shape.targets.first { $0.name == name }, "no target \(name)")
            #expect(target.plugins.contains("ABIIdentityGenerator"), """
                \(name) does not apply the ABIIdentityGenerator plugin (plugins: ["ABIIdentityGenerator"]), so a plugin built \
                against another \(name) is not refused; every interface target needs it, as *Adding a module* shows
                """)
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
