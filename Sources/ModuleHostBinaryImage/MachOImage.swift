/// A 64-bit little-endian Mach-O file (a `.dylib` or bundle) read through ``BoundedFile``: its kind, its CPU,
/// the section `__DATA,__modulehost_abi` and its external symbols (from `LC_SYMTAB`, leading `_` removed). As
/// with ``ELFImage``, every offset, size and count is checked against the file before it is used.
public struct MachOImage {
    public static let magic: UInt32 = 0xFEED_FACF
    public static let headerSize: UInt64 = 32
    public let isSharedObject: Bool
    public let foreignArchitecture: String?
    public let markSection: (offset: UInt64, size: UInt64)?
    public let symbolTable: (offset: UInt64, count: UInt64, stringsOffset: UInt64, stringsSize: UInt64)?
    public let file: BoundedFile

    public init(_ file: BoundedFile) throws(BinaryFormatError) {
        self.file = file
        let header = LittleEndianBytes(bytes: try file.bytes(at: 0, count: Self.headerSize, what: "Mach-O header"))
        let cpu = try header.u32(4), fileType = try header.u32(12), count = try header.u32(16), size = try header.u32(20)
        isSharedObject = fileType == 6 || fileType == 8  // MH_DYLIB, MH_BUNDLE
        foreignArchitecture = cpu == Self.hostCPU.code ? nil : "it is built for \(Self.cpuName(cpu)); this host is \(Self.hostCPU.name)"
        guard foreignArchitecture == nil else {
            markSection = nil
            symbolTable = nil
            return
        }
        let commands = LittleEndianBytes(bytes: try file.bytes(at: Self.headerSize, count: size, what: "load commands"))
        var mark: (UInt64, UInt64)?, symbols: (UInt64, UInt64, UInt64, UInt64)?
        var offset = 0
        for _ in 0..<min(count, 65_536) {
            let command = try commands.u32(offset), commandSize = Int(try commands.u32(offset + 4))
            guard commandSize >= 8, offset + commandSize <= commands.bytes.count else { throw BinaryFormatError("a load command overruns the others") }
            if command == 0x19, mark == nil {  // LC_SEGMENT_64
                mark = try Self.markSection(in: commands, at: offset, size: commandSize)
            } else if command == 0x2 {  // LC_SYMTAB
                symbols = (try commands.u32(offset + 8), try commands.u32(offset + 12), try commands.u32(offset + 16), try commands.u32(offset + 20))
            }
            offset += commandSize
        }
        markSection = mark
        symbolTable = symbols
    }

    /// The `__DATA,__modulehost_abi` section in the segment command at `offset`, if it is there.
    private static func markSection(in commands: LittleEndianBytes, at offset: Int, size: Int) throws(BinaryFormatError) -> (UInt64, UInt64)? {
        let sections = Int(try commands.u32(offset + 64))
        guard 72 + sections * 80 <= size else { throw BinaryFormatError("a segment's sections overrun its load command") }
        for index in 0..<sections {
            let base = offset + 72 + index * 80
            let name = String(decoding: commands.bytes[base..<base + 16].prefix { $0 != 0 }, as: UTF8.self)
            let segment = String(decoding: commands.bytes[base + 16..<base + 32].prefix { $0 != 0 }, as: UTF8.self)
            if segment == "__DATA" || segment == "__DATA_CONST", name == "__modulehost_abi" {
                return (try commands.u32(base + 48), try commands.u64(base + 40))
            }
        }
        return nil
    }

    /// The mark section's bytes, or `nil` when there is none.
    public func mark() throws(BinaryFormatError) -> [UInt8]? {
        guard let markSection else { return nil }
        return try file.bytes(at: markSection.offset, count: markSection.size, what: "section __modulehost_abi")
    }

    /// The external symbols, defined and undefined, without their leading underscore.
    public func symbols() throws(BinaryFormatError) -> ELFImage.DynamicSymbols {
        var result = ELFImage.DynamicSymbols()
        guard let table = symbolTable else { return result }
        let entries = LittleEndianBytes(bytes: try file.bytes(at: table.offset, count: table.count * 16, what: "symbol table"))
        let strings = try file.bytes(at: table.stringsOffset, count: table.stringsSize, what: "string table")
        for index in 0..<Int(table.count) {
            let base = index * 16
            let type = entries.bytes[base + 4], nameOffset = Int(try entries.u32(base))
            guard type & 0xE0 == 0, type & 0x01 != 0 else { continue }  // no debugging entries; external only
            guard nameOffset < strings.count, let end = strings[nameOffset...].firstIndex(of: 0) else {
                throw BinaryFormatError("a symbol's name lies outside its string table")
            }
            var name = String(decoding: strings[nameOffset..<end], as: UTF8.self)
            if name.hasPrefix("_") { name.removeFirst() }
            if type & 0x0E == 0 { result.undefined.append(name) } else if type & 0x0E == 0x0E { result.defined.append(name) }
        }
        return result
    }

    public static var hostCPU: (code: UInt64, name: String) {
        #if arch(x86_64)
        (0x0100_0007, "x86-64")
        #elseif arch(arm64)
        (0x0100_000C, "arm64")
        #else
        (0, "an unsupported machine")
        #endif
    }

    public static func cpuName(_ cpu: UInt64) -> String {
        switch cpu {
        case 0x0100_0007: "x86-64"
        case 0x0100_000C: "arm64"
        case 7: "i386"
        case 12: "arm (32-bit)"
        default: "CPU type \(cpu)"
        }
    }
}
