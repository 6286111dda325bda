import Foundation
@testable import ModuleHost
@testable import ModuleHostBinaryImage
import Testing
import TestSupport

#if os(Linux) && arch(x86_64)
import Glibc

/// The Mach-O reader, on an object file that clang compiles for macOS here, its file type patched to a dylib's.
@Suite("Mach-O reader")
struct MachOImageTests {
    @Test func readsTheMarkAndTheSymbolsOfAMachOLibrary() throws {
        let directory = try TemporaryDirectory()
        let source = try directory.write("""
            __attribute__((used, section("__DATA,__modulehost_abi"))) static const char mark[] = "\(ABIIdentity.mark)";
            extern int nobody __asm__("_$s10ModuleHost0A7ManagerC6nobodySivg");
            int answer(void) { return nobody; }
            """, to: "plugin.c")
        let object = directory.url.appendingPathComponent("plugin.o")
        let clang = try ToolOutput.run("/opt/swift/usr/bin/clang", ["-target", "x86_64-apple-macos11", "-c", "-o", object.path, source.path])
        try #require(clang.status == 0)
        var bytes = [UInt8](try Data(contentsOf: object))
        bytes[12] = 6  // MH_OBJECT -> MH_DYLIB
        try Data(bytes).write(to: object)
        let descriptor = open(object.path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let binary = try PluginBinary.read(BoundedFile(descriptor: descriptor, size: UInt64(bytes.count)))
        #expect(binary.isSharedObject && binary.foreignArchitecture == nil)
        #expect(binary.mark.flatMap(ABIMark.identity(in:)) == .host)
        #expect(binary.symbols.defined.contains("answer"))
        #expect(binary.symbols.undefined.contains("$s10ModuleHost0A7ManagerC6nobodySivg"))
        // Corrupted copies are refused or read, never trusted.
        for trial in 0..<300 {
            var corrupt = bytes
            for _ in 0..<4 { corrupt[Int.random(in: 0..<min(corrupt.count, trial < 150 ? 512 : corrupt.count))] = .random(in: 0...255) }
            try Data(corrupt).write(to: object)
            _ = try? PluginBinary.read(BoundedFile(descriptor: descriptor, size: UInt64(corrupt.count)))
        }
    }
}
#endif
