import Foundation
@testable import ModuleHost
@testable import ModuleHostBinaryImage
import Testing
import TestSupport

/// The host reads a plugin's mark twice: in its section, and in its code (the mark of the interface it was compiled
/// against). A section written by hand with this host's mark, on a plugin compiled against another ModuleHost, is
/// refused: the two differ.
@Suite("Plugin code marks")
struct CodeMarkTests {
    static let tail = "x86_64-unknown-linux-gnu Swift version 6.3.1 (swift-6.3.1-RELEASE)"
    static let this = ABIMark.Identity(digest: String(repeating: "ab", count: 32), triple: "x86_64-unknown-linux-gnu",
                                       compiler: "Swift version 6.3.1 (swift-6.3.1-RELEASE)")
    static let other = ABIMark.Identity(digest: String(repeating: "cd", count: 32), triple: this.triple, compiler: this.compiler)

    private static func text(_ identity: ABIMark.Identity) -> String { "MHABI2 \(identity.digest) \(tail)" }

    /// The marks in a file with `bytes`.
    private func marks(in bytes: [UInt8]) throws -> [ABIMark.Identity] {
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent("lib.so")
        try Data(bytes).write(to: url)
        let descriptor = open(url.path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        return try ABIMark.marks(in: BoundedFile(descriptor: descriptor, size: UInt64(bytes.count)))
    }

    @Test func everyMarkInTheFileIsFoundOnceEvenAcrossAReadsEnd() throws {
        var bytes = Array("\u{7F}ELF".utf8) + Array(Self.text(Self.this).utf8) + [0]
        bytes += [UInt8](repeating: 0x41, count: ABIMark.scanChunk - bytes.count - 20)   // printable filler up to the end
        bytes += [0] + Array(Self.text(Self.other).utf8) + [0, 0x4D, 0x48]                // straddles the first read's end
        bytes += Array(Self.text(Self.this).utf8) + Array("\n".utf8)                       // at the file's very end
        #expect(try marks(in: bytes) == [Self.this, Self.other, Self.this])
    }

    @Test func anOccurrenceThatIsNoMarkIsLeftOut() throws {
        let bytes = Array("MHABI2 not a digest\0MHABI2 ".utf8) + Array(Self.text(Self.this).utf8)
        #expect(try marks(in: bytes) == [Self.this])
    }

    @Test func aSectionThatDisagreesWithTheCodeIsRefusedNamingBoth() {
        let error = #expect(throws: PluginError.self) {
            try PluginInspector.checkCode([Self.other, Self.this], section: Self.this, path: "/p/lib.so", library: "lib.so")
        }
        #expect(error?.code == .abiMismatch)
        #expect(error?.message.contains(Self.this.short) == true && error?.message.contains(Self.other.short) == true)
    }

    @Test func aSectionWithNoMarkInTheCodeIsRefused() {
        let error = #expect(throws: PluginError.self) {
            try PluginInspector.checkCode([Self.this], section: Self.this, path: "/p/lib.so", library: "lib.so")
        }
        #expect(error?.code == .missingABIMark)
    }

    @Test func aSectionCopiedFromTheCodePasses() throws {
        try PluginInspector.checkCode([Self.this, Self.this], section: Self.this, path: "/p/lib.so", library: "lib.so")
        try PluginInspector.checkCode([Self.this, Self.this, Self.this], section: Self.this, path: "/p/lib.so", library: "lib.so")
    }
}
