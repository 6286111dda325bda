import Foundation
import Testing
import ModuleHostTesting

/// `ABIIdentity.current`, the identity plugins are stamped with and checked against, matches ModuleHost's sources.
@Suite("ABI identity", .disabled(if: Sanitizers.threadSanitizerIsActive, "CPU-bound, proves no concurrency property; runs in the plain suite"))
struct ABIIdentityTests {
    @Test func sha256MatchesKnownDigests() {
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(SHA256.hex(Array(twoBlocks.utf8)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func generatedIdentityIsCurrent() throws {
        let root = PackageDump.root
        let files = try ABIIdentitySource.files(root: root)
        try #require(files.contains("Sources/ModuleHost/Manager/ModuleManager.swift"), "is the scan reading ModuleHost's sources? \(files)")
        #expect(!files.contains(ABIIdentitySource.generatedPath))
        let identity = try ABIIdentitySource.identity(root: root)
        let generated = try String(contentsOf: root.appendingPathComponent(ABIIdentitySource.generatedPath), encoding: .utf8)
        #expect(generated == ABIIdentitySource.generatedFile(identity: identity), """
            \(ABIIdentitySource.generatedPath) is stale (ModuleHost's sources give \(identity)): \
            run Scripts/abi-identity.sh --write
            """)
    }

    @Test func commentsAndIndentationAreIgnoredAndCodeIsNot() async throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("abi-identity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.createDirectory(at: copy.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: PackageDump.root.appendingPathComponent("Sources/ModuleHost"),
                                         to: copy.appendingPathComponent("Sources/ModuleHost"))
        let original = try ABIIdentitySource.identity(root: copy)
        let file = copy.appendingPathComponent("Sources/ModuleHost/Module/ModuleIdentifier.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        let anchor = "public struct ModuleIdentifier: Hashable, Sendable {\n"
        try #require(text.contains(anchor))

        // A doc comment, a comment, blank lines, tabs, CRLF and trailing spaces: the same identity.
        let cosmetic = text.replacingOccurrences(of: anchor, with: "\t/// Reworded.\r\n\n  // note  \n" + anchor.dropLast() + "   \r\n\n")
        try Data(cosmetic.utf8).write(to: file)
        #expect(try ABIIdentitySource.identity(root: copy) == original)
        #expect(try await scriptIdentity(of: copy) == original)

        // A stored property: another identity, and the script agrees on it.
        try Data(text.replacingOccurrences(of: anchor, with: anchor + "    public let drift = 0\n").utf8).write(to: file)
        let changed = try ABIIdentitySource.identity(root: copy)
        #expect(changed != original)
        #expect(try await scriptIdentity(of: copy) == changed)
    }

    private func scriptIdentity(of root: URL) async throws -> String {
        let script = PackageDump.root.appendingPathComponent("Scripts/abi-identity.sh")
        let result = try await Subprocess.run(URL(fileURLWithPath: "/bin/bash"), [script.path, root.path], timeout: .seconds(60))
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func scriptAgreesWithThisDefinition() async throws {
        let root = PackageDump.root
        let result = try await Subprocess.run(URL(fileURLWithPath: "/bin/bash"), [root.appendingPathComponent("Scripts/abi-identity.sh").path, root.path], timeout: .seconds(60))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == (try ABIIdentitySource.identity(root: root)))
    }
}
