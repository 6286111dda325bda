import Foundation
@testable import ModuleHost
import ModuleHostSystemLibraries
import Testing
import TestSupport

/// The identity this ModuleHost carries is computed by its build (the ABIIdentityGenerator
/// plugin), from exactly the sources it was compiled from, the compiler and the target; nothing committed holds it.
@Suite("ABI identity from the build")
struct ABIIdentityTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The digest, recomputed here by its definition (Sources/ABIIdentityTool/SourceDigest.swift) with another
    /// SHA-256 implementation (the system's, through ModuleHost) than the build tool's: it covers ModuleHost's own
    /// sources, and no other library's (each library built on it has an identity of its own).
    @Test func theDigestIsTheOneOfTheSourcesThisBuildCompiled() throws {
        let folder = Self.root.appendingPathComponent("Sources")
        var lines: [(path: String, line: String)] = []
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.appendingPathComponent("ModuleHost").path))
        for case let file as String in enumerator where file.hasSuffix(".swift") {
            let path = "ModuleHost/\(file)"
            let digest = try #require(SHA256Digest.hex(of: try Data(contentsOf: folder.appendingPathComponent(path))))
            lines.append((path, "\(digest)  \(path)\n"))
        }
        #expect(lines.contains { $0.path == "ModuleHost/Manager/ModuleManager.swift" }, "is the scan reading ModuleHost's sources?")
        #expect(!lines.contains { $0.path.hasSuffix("ABIIdentity.swift") }, "the identity is generated, not a source file")
        let listing = lines.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }.map(\.line).joined()
        #expect(SHA256Digest.hex(of: Data(listing.utf8)) == ABIIdentity.digest)
    }

    @Test func theCompilerAndTheTargetAreTheToolchainsThatBuiltIt() throws {
        let output = try ToolOutput.run("/usr/bin/env", ["swiftc", "-print-target-info"])
        let info = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(info["compilerVersion"] as? String == ABIIdentity.compiler)
        #expect((info["target"] as? [String: Any])?["triple"] as? String == ABIIdentity.triple)
        #expect(ABIIdentity.compiler.hasPrefix("Swift version "), "\(ABIIdentity.compiler)")
    }

    @Test func theMarkNamesAllThreeAndIsTheOneModuleTypesCarry() throws {
        #expect(ABIIdentity.mark == "MHABI2 \(ABIIdentity.digest) \(ABIIdentity.triple) \(ABIIdentity.compiler)")
        #expect(ABIMark.identity(in: Array(ABIIdentity.mark.utf8)) == .host)
        // A module type's own code carries a mark of the same form. (Its digest is the one of the interface this file
        // was last compiled against: an incremental build need not recompile it when only ModuleHost's sources
        // changed, which is why plugins are recompiled on a new interface and checked by their mark.)
        let carried = try #require(ABIMark.identity(in: Array("\(MarkedModule._moduleHostABIMark)".utf8)))
        #expect(carried.compiler == ABIIdentity.compiler && carried.triple == ABIIdentity.triple)
    }

    /// `git grep` finds the identity in no committed file: it exists only in builds.
    @Test func noCommittedFileHoldsTheIdentity() throws {
        let grep = try ToolOutput.run("/usr/bin/env", ["git", "-C", Self.root.path, "grep", "-l", "-F", "-e", ABIIdentity.digest,
                                                       "-e", String(ABIIdentity.digest.prefix(12))])
        #expect(grep.status == 1, "git grep found the identity (or failed): \(grep.stdout)")
        #expect(!FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("Sources/ModuleHost/Plugins/ABIIdentity.swift").path))
    }
}

/// A module type compiled in this test module, against ModuleHost's interface, like a plugin's.
private final class MarkedModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.abi-mark"
    init(context: any ModuleContext) {}
}
