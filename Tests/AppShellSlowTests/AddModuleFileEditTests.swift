import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// add-module edits a user's files as the rule for such a command says: it reads them as the compiler does or
/// refuses, keeps their modes and links or refuses, and never loses an entry. Each case failed before: a nested
/// comment took the targets, `NOTES` was accepted beside `Notes`, modules.json went from 0600 to 0644, a read-only
/// file was overwritten, a linked Package.swift became a plain file, and a link to nothing became a manifest
/// holding only the new module.
extension AddModuleCommandTests {
    /// Package.swift with a nested block comment holding `targets: [` and `)` before the real ones, a raw string and
    /// an interpolation holding a string that look like code, strings that start with a combining mark, a function
    /// whose name ends in `Package(`, and host dependencies that end with a comma and a comment.
    static var trickyPackageText: String {
        packageText
            // The host's dependencies end with a comment, and a comma before it.
            .replacingOccurrences(of: #"package: "\#(PluginToolchain.root.lastPathComponent)")]),"#,
                                  with: #"package: "\#(PluginToolchain.root.lastPathComponent)"), // the library\#n], exclude: ["́x]", "́y"]),"#)
            .replacingOccurrences(of: "    products: [", with: """
                    /* outer /* inner */ targets: [ ], still the outer comment ) */
                    products: [
                """)
            .replacingOccurrences(of: "let package = Package(", with: #"""
                func makePackage(targets: [String] = []) -> [String] { targets }  // not the Package( call
                let note = #"a "raw" string: targets: [ ("# + "\("inter" + "polated )")"
                let package = Package(
                """#)
    }

    @Test func nestedCommentsRawStringsAndInterpolationsAreReadAsTheCompilerReadsThem() async throws {
        let (result, app) = try await addModule("Kappa", ["--state"], manifest: .bytes(Array(#"{"modules": []}"#.utf8)),
                                                package: Self.trickyPackageText)
        #expect(result.status == 0, "\(result.all.suffix(2_000))")
        let targets = try await targets(of: app)
        #expect(targets["MyApp"]?.contains("KappaModule") == true, "\(targets)")
        #expect(targets["KappaModule"]?.contains("ModuleHostState") == true, "--state adds ModuleHostState: \(targets)")
        #expect(Set(targets.keys).isSuperset(of: ["KappaInterface", "KappaModule", "KappaModuleTests"]), "\(targets.keys)")
        let text = try String(contentsOf: app.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(text.contains("still the outer comment ) */"), "the comment was edited")
    }

    @Test func aNameThatDiffersOnlyInCaseFromATakenOneIsRefused() async throws {
        let app = try await reset(manifest: .bytes(Array(#"{"modules": []}"#.utf8)))
        let first = try await run("Notes", in: app)
        #expect(first.status == 0, "\(first.all.suffix(2_000))")
        let manifest = try Data(contentsOf: app.appendingPathComponent("modules.json"))
        let second = try await run("NOTES", in: app)
        #expect(second.status != 0 && second.all.contains("already has a target named NotesInterface"), "\(second.all.suffix(2_000))")
        #expect(try Data(contentsOf: app.appendingPathComponent("modules.json")) == manifest, "modules.json was changed")
        let identifier = try String(contentsOf: app.appendingPathComponent("Sources/NotesInterface/NotesService.swift"), encoding: .utf8)
        #expect(identifier.contains("\"com.myapp.notes\""), "the identifier follows the demo's com.<package>.<name>:\n\(identifier)")
    }

    @Test func theEditedFilesKeepTheirModesAndLinks() async throws {
        let app = try await reset(manifest: .bytes(Array(#"{"modules": []}"#.utf8)))
        let manager = FileManager.default
        // modules.json holds password hashes: 0600. Package.swift is a link into a folder of its own.
        #expect(chmod(app.appendingPathComponent("modules.json").path, 0o600) == 0)
        try manager.createDirectory(at: app.appendingPathComponent("config"), withIntermediateDirectories: true)
        try manager.moveItem(at: app.appendingPathComponent("Package.swift"), to: app.appendingPathComponent("config/Package.swift"))
        try manager.createSymbolicLink(atPath: app.appendingPathComponent("Package.swift").path, withDestinationPath: "config/Package.swift")
        let result = try await run("Mu", in: app)
        #expect(result.status == 0, "\(result.all.suffix(2_000))")
        let mode = try manager.attributesOfItem(atPath: app.appendingPathComponent("modules.json").path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600, "modules.json's mode became \(String(mode?.intValue ?? 0, radix: 8))")
        #expect(try manager.destinationOfSymbolicLink(atPath: app.appendingPathComponent("Package.swift").path) == "config/Package.swift",
                "the link was replaced by a file")
        #expect(try String(contentsOf: app.appendingPathComponent("config/Package.swift"), encoding: .utf8).contains("MuModule"))
    }

    @Test func aReadOnlyFileAndALinkToNothingAreRefusedAndNothingIsWritten() async throws {
        let readOnly = try await reset(manifest: .bytes(Array(#"{"modules": []}"#.utf8)))
        #expect(chmod(readOnly.appendingPathComponent("modules.json").path, 0o444) == 0)
        let refused = try await run("Nu", in: readOnly)
        #expect(refused.status != 0 && refused.all.contains("modules.json is read-only"), "\(refused.all.suffix(2_000))")
        #expect(try String(contentsOf: readOnly.appendingPathComponent("Package.swift"), encoding: .utf8) == Self.packageText)
        #expect(!FileManager.default.fileExists(atPath: readOnly.appendingPathComponent("Sources/NuModule").path))

        let dangling = try await reset(manifest: .bytes([]))
        try FileManager.default.removeItem(at: dangling.appendingPathComponent("modules.json"))
        try FileManager.default.createSymbolicLink(atPath: dangling.appendingPathComponent("modules.json").path, withDestinationPath: "config/gone.json")
        let refusedLink = try await run("Xi", in: dangling)
        #expect(refusedLink.status != 0 && refusedLink.all.contains("modules.json is a link to config/gone.json, which does not exist"),
                "\(refusedLink.all.suffix(2_000))")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling.appendingPathComponent("modules.json").path) == "config/gone.json")
        #expect(!FileManager.default.fileExists(atPath: dangling.appendingPathComponent("Sources/XiModule").path))
    }
}
