/// A 64-bit little-endian ELF file read through ``BoundedFile``: its kind, its machine, its sections by name and
/// its dynamic symbols. Nothing in it is trusted: every offset and size is checked against the file's size and
/// every count is bounded, so a hostile file is refused as malformed, never read out of bounds.
public struct ELFImage {
    /// A section header's fields that the reader uses.
    public struct Section {
        public let name: String
        public let type: UInt64
        public let offset: UInt64
        public let size: UInt64
        public let link: UInt64
    }

    /// The names of a library's dynamic symbols.
    public struct DynamicSymbols: Sendable {
        /// Symbols the library defines and exports (global or weak, default or protected visibility).
        public var defined: [String] = []
        /// Symbols the library needs from elsewhere.
        public var undefined: [String] = []
    }

    public let file: BoundedFile
    /// `ET_DYN`: a shared object.
    public let isSharedObject: Bool
    /// Why the file is for another machine (class, byte order or machine), or `nil` when it matches this host's.
    public let foreignArchitecture: String?
    public let sections: [Section]

    public static let sharedObjectType: UInt64 = 3
    public static let symbolTableType: UInt64 = 11  // SHT_DYNSYM
    public static let noBitsType: UInt64 = 8        // SHT_NOBITS: no bytes in the file
    public static let headerSize: UInt64 = 64, sectionHeaderSize: UInt64 = 64, symbolSize: UInt64 = 24

    /// Reads the header and the section table; throws a ``BinaryFormatError`` for a file that is not ELF or is malformed.
    public init(_ file: BoundedFile) throws(BinaryFormatError) {
        self.file = file
        guard file.size >= 16, try file.bytes(at: 0, count: 4, what: "magic number") == [0x7F, 0x45, 0x4C, 0x46] else {
            throw BinaryFormatError("it is not an ELF file", notAnObject: true)
        }
        let ident = try file.bytes(at: 0, count: 16, what: "identification")
        guard ident[4] == 2, ident[5] == 1 else {
            let word = ident[4] == 1 ? "32-bit" : ident[4] == 2 ? "64-bit" : "unknown-class"
            let order = ident[5] == 2 ? "big-endian" : ident[5] == 1 ? "little-endian" : "unknown-byte-order"
            isSharedObject = false
            foreignArchitecture = "it is a \(word) \(order) ELF file; this host is \(Self.hostMachine.name) (64-bit little-endian)"
            sections = []
            return
        }
        let header = LittleEndianBytes(bytes: try file.bytes(at: 0, count: Self.headerSize, what: "ELF header"))
        isSharedObject = try header.u16(16) == Self.sharedObjectType
        let machine = try header.u16(18)
        foreignArchitecture = machine == Self.hostMachine.code ? nil
            : "it is built for \(Self.machineName(machine)); this host is \(Self.hostMachine.name)"
        sections = foreignArchitecture == nil ? try Self.readSections(of: file, header: header) : []
    }

    /// The section table, with names from the section-name string table.
    private static func readSections(of file: BoundedFile, header: LittleEndianBytes) throws(BinaryFormatError) -> [Section] {
        let offset = try header.u64(40), entrySize = try header.u16(58), count = try header.u16(60), namesIndex = try header.u16(62)
        guard count > 0 else { return [] }
        guard entrySize == sectionHeaderSize else { throw BinaryFormatError("its section headers have size \(entrySize), not 64") }
        let table = LittleEndianBytes(bytes: try file.bytes(at: offset, count: count * entrySize, what: "section header table"))
        var raw: [(name: UInt64, section: Section)] = []
        for index in 0..<Int(count) {
            let base = index * Int(entrySize)
            raw.append((try table.u32(base), Section(name: "", type: try table.u32(base + 4), offset: try table.u64(base + 24),
                                                      size: try table.u64(base + 32), link: try table.u32(base + 40))))
        }
        guard namesIndex < count else { throw BinaryFormatError("its section-name table index \(namesIndex) is out of range") }
        let names = try contents(of: raw[Int(namesIndex)].section, in: file, what: "section-name table")
        return try raw.map { entry throws(BinaryFormatError) in
            Section(name: try string(at: entry.name, in: names), type: entry.section.type, offset: entry.section.offset,
                    size: entry.section.size, link: entry.section.link)
        }
    }

    /// The bytes of the first section named `name`, or `nil` when there is none.
    public func section(named name: String) throws(BinaryFormatError) -> [UInt8]? {
        guard let section = sections.first(where: { $0.name == name }) else { return nil }
        return try Self.contents(of: section, in: file, what: "section \(name)")
    }

    /// The names in `.dynsym`, split into defined (exported) and undefined; empty when there is no `.dynsym`.
    public func dynamicSymbols() throws(BinaryFormatError) -> DynamicSymbols {
        var symbols = DynamicSymbols()
        guard let table = sections.first(where: { $0.type == Self.symbolTableType }) else { return symbols }
        guard table.link < UInt64(sections.count) else { throw BinaryFormatError("its .dynsym names a string table that does not exist") }
        let strings = try Self.contents(of: sections[Int(table.link)], in: file, what: ".dynstr")
        let entries = LittleEndianBytes(bytes: try Self.contents(of: table, in: file, what: ".dynsym"))
        let count = entries.bytes.count / Int(Self.symbolSize)
        for index in 1..<max(count, 1) {
            let base = index * Int(Self.symbolSize)
            let name = try Self.string(at: try entries.u32(base), in: strings)
            let info = entries.bytes[base + 4], visibility = entries.bytes[base + 5] & 3, sectionIndex = try entries.u16(base + 6)
            if name.isEmpty { continue }
            if sectionIndex == 0 {
                symbols.undefined.append(name)
            } else if info >> 4 != 0, visibility == 0 || visibility == 3 {
                symbols.defined.append(name)
            }
        }
        return symbols
    }

    private static func contents(of section: Section, in file: BoundedFile, what: String) throws(BinaryFormatError) -> [UInt8] {
        if section.type == noBitsType { return [] }
        return try file.bytes(at: section.offset, count: section.size, what: what)
    }

    /// The NUL-terminated string at `offset` in a string table.
    static func string(at offset: UInt64, in table: [UInt8], limit: Int = .max) throws(BinaryFormatError) -> String {
        guard offset < UInt64(table.count) || (offset == 0 && table.isEmpty) else {
            throw BinaryFormatError("a name's offset \(offset) lies outside its string table")
        }
        guard !table.isEmpty else { return "" }
        let start = Int(offset)
        let searched = table[start..<(table.count - start > limit ? start + limit + 1 : table.count)]
        guard let end = searched.firstIndex(of: 0) else {
            throw BinaryFormatError(searched.count > limit ? "a name in a string table is longer than \(limit) bytes"
                                    : "a name in a string table is not terminated")
        }
        return String(decoding: table[start..<end], as: UTF8.self)
    }
}

extension ELFImage {
    /// This host's `e_machine` and its name.
    public static var hostMachine: (code: UInt64, name: String) {
        #if arch(x86_64)
        (62, machineName(62))
        #elseif arch(arm64)
        (183, machineName(183))
        #else
        (0, "an unsupported machine")
        #endif
    }

    /// A readable name for an `e_machine` value.
    public static func machineName(_ machine: UInt64) -> String {
        switch machine {
        case 3: "x86 (32-bit)"
        case 40: "ARM (32-bit)"
        case 62: "x86-64"
        case 183: "AArch64"
        case 243: "RISC-V"
        case 21: "PowerPC 64"
        case 22: "IBM S/390"
        default: "machine \(machine)"
        }
    }
}
