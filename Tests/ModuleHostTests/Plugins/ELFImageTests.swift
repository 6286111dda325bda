import Foundation
@testable import ModuleHost
@testable import ModuleHostBinaryImage
import Testing
import TestSupport

#if os(Linux)
import Glibc

@Suite("ELF reader")
struct ELFImageTests {
    /// Reads `url` with the reader, through a descriptor opened here.
    private func image(of url: URL) throws -> (ELFImage, ELFImage.DynamicSymbols, mark: [UInt8]?, other: [UInt8]?) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var status = stat()
        try #require(fstat(descriptor, &status) == 0)
        let image = try ELFImage(BoundedFile(descriptor: descriptor, size: UInt64(status.st_size)))
        return (image, try image.dynamicSymbols(), try image.section(named: "modulehost_abi"), try image.section(named: "no_such_section"))
    }

    @Test func readsKindMachineSectionAndSymbols() throws {
        let directory = try TemporaryDirectory()
        let library = directory.url.appendingPathComponent("libsample.so")
        try CLibrary.compile(CLibrary.mark() + "#include <stdio.h>\nint sample_answer(void) { puts(\"x\"); return 42; }\n", to: library)
        let (image, symbols, mark, other) = try image(of: library)
        #expect(image.isSharedObject)
        #expect(image.foreignArchitecture == nil)
        #expect(mark.flatMap(ABIMark.identity(in:)) == .host)
        #expect(other == nil)
        #expect(symbols.defined.contains("sample_answer"))
        #expect(symbols.undefined.contains("puts"))
        #expect(!symbols.defined.contains("puts"))
    }

    @Test func anExecutableIsNotASharedObject() throws {
        let directory = try TemporaryDirectory()
        let program = directory.url.appendingPathComponent("program")
        try CLibrary.compile("int main(void) { return 0; }\n", to: program, shared: false, extraArguments: ["-no-pie"])
        #expect(try !image(of: program).0.isSharedObject)
    }

    @Test func a32BitOrBigEndianFileIsForeign() throws {
        let directory = try TemporaryDirectory()
        for (word, order, expected) in [(UInt8(1), UInt8(1), "32-bit little-endian"), (2, 2, "64-bit big-endian")] {
            var header = [UInt8](repeating: 0, count: 64)
            header[0...6] = [0x7F, 0x45, 0x4C, 0x46, word, order, 1]
            let file = directory.url.appendingPathComponent("lib\(word)\(order).so")
            try Data(header).write(to: file)
            #expect(try image(of: file).0.foreignArchitecture?.contains(expected) == true)
        }
    }

    @Test func textIsNotAnObjectAndATruncatedLibraryIsMalformed() throws {
        let directory = try TemporaryDirectory()
        let text = try directory.write("just some text", to: "notes.txt")
        #expect(throws: BinaryFormatError("it is not an ELF file", notAnObject: true)) { try image(of: text) }
        let library = directory.url.appendingPathComponent("libsample.so")
        try CLibrary.compile("int sample_answer(void) { return 42; }\n", to: library)
        let bytes = try Data(contentsOf: library)
        try bytes.prefix(200).write(to: library)
        #expect { try image(of: library) } throws: { ($0 as? BinaryFormatError)?.notAnObject == false }
    }

    /// Hostile files: a real library with its header's offsets and counts, and then random bytes, overwritten.
    /// The reader either reads or refuses; it never traps or reads outside the file.
    @Test func corruptedLibrariesAreRefusedNotTrustedf() throws {
        let directory = try TemporaryDirectory()
        let library = directory.url.appendingPathComponent("libsample.so")
        try CLibrary.compile(CLibrary.mark() + "int sample_answer(void) { return 42; }\n", to: library)
        let original = [UInt8](try Data(contentsOf: library))
        var generator = SystemRandomNumberGenerator()
        let corrupt = directory.url.appendingPathComponent("libcorrupt.so")
        for trial in 0..<400 {
            var bytes = original
            if trial < 64 {
                // Every byte of the ELF header's offsets and counts, set to its largest value.
                bytes[32 + trial % 32] = 0xFF
            } else {
                for _ in 0..<8 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            }
            try Data(bytes).write(to: corrupt)
            _ = try? image(of: corrupt)
        }
    }
}
#endif
