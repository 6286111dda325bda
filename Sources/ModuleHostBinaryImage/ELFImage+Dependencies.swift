/// What the dynamic loader reads of the libraries a shared object needs, read as the loader reads it.
extension ELFImage {
    /// The libraries needed (`DT_NEEDED`, and the filters `DT_AUXILIARY` and `DT_FILTER`, which the loader loads
    /// the same way), in order, and where to look for them (`DT_RPATH` and `DT_RUNPATH`, split at `:` with empty
    /// entries kept: the loader reads one as the working directory). Read from the `PT_DYNAMIC` table at its address
    /// (not the section headers, which the loader ignores), up to its `DT_NULL`, with its strings at `DT_STRTAB`,
    /// both mapped through the `PT_LOAD` segments. Empty when there is no dynamic segment.
    public func dynamicDependencies() throws(BinaryFormatError) -> Dependencies {
        guard let segments = try Segments(of: file) else { return Dependencies() }
        let tags = try segments.dynamicTags()
        let named: Set<UInt64> = [1, 15, 29, 0x7fff_fffd, 0x7fff_ffff]
        guard tags.contains(where: { named.contains($0.tag) }) else { return Dependencies() }
        guard let address = tags.last(where: { $0.tag == 5 })?.value, let size = tags.last(where: { $0.tag == 10 })?.value else {
            throw BinaryFormatError("its dynamic segment names libraries but has no string table")
        }
        let strings = try segments.mapped(address, size, "dynamic string table")
        // Bounded work whatever the file holds: at most `dependencyLimit` names, each read up to `nameLimit` bytes.
        var dependencies = Dependencies(), read = 0
        for (tag, value) in tags where named.contains(tag) {
            read += 1
            guard read <= Self.dependencyLimit else {
                throw BinaryFormatError("its dynamic segment names more than \(Self.dependencyLimit) libraries and search paths")
            }
            let name = try Self.string(at: value, in: strings, limit: Self.nameLimit)
            let folders = name.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            switch tag {
            case 15: dependencies.rpath += folders
            case 29: dependencies.runpath += folders
            default: dependencies.needed.append(name)
            }
        }
        return dependencies
    }

    /// The loaded segments and the dynamic segment, from the program headers.
    private struct Segments {
        let file: BoundedFile
        let loads: [(address: UInt64, offset: UInt64, size: UInt64)]
        let dynamic: (address: UInt64, size: UInt64)

        /// `nil` when the file has no dynamic segment; throws for overlapping loaded segments (the later mapping
        /// would win, so the bytes read would not be the bytes loaded) or more than one dynamic segment.
        init?(of file: BoundedFile) throws(BinaryFormatError) {
            let header = LittleEndianBytes(bytes: try file.bytes(at: 0, count: ELFImage.headerSize, what: "ELF header"))
            let tableOffset = try header.u64(32), entrySize = try header.u16(54), count = try header.u16(56)
            guard count > 0 else { return nil }
            guard entrySize == ELFImage.programHeaderSize else { throw BinaryFormatError("its program headers have size \(entrySize), not 56") }
            let table = LittleEndianBytes(bytes: try file.bytes(at: tableOffset, count: count * entrySize, what: "program header table"))
            var loads: [(address: UInt64, offset: UInt64, size: UInt64)] = [], dynamic: (address: UInt64, size: UInt64)?
            for index in 0..<Int(count) {
                let base = index * Int(entrySize)
                switch try table.u32(base) {
                case 1: loads.append((try table.u64(base + 16), try table.u64(base + 8), try table.u64(base + 32)))
                case 2:
                    guard dynamic == nil else { throw BinaryFormatError("it has more than one dynamic segment") }
                    dynamic = (try table.u64(base + 16), try table.u64(base + 32))
                default: continue
                }
            }
            guard let dynamic else { return nil }
            let ordered = loads.sorted { $0.address < $1.address }
            for (earlier, later) in zip(ordered, ordered.dropFirst())
            where earlier.address.addingReportingOverflow(earlier.size).overflow || earlier.address + earlier.size > later.address {
                throw BinaryFormatError("its loaded segments overlap")
            }
            (self.file, self.loads, self.dynamic) = (file, loads, dynamic)
        }

        /// The `size` bytes at `address` in the loaded image, from the file.
        func mapped(_ address: UInt64, _ size: UInt64, _ what: String) throws(BinaryFormatError) -> [UInt8] {
            guard let load = loads.first(where: { address >= $0.address && address - $0.address < $0.size }),
                  size <= load.size - (address - load.address) else {
                throw BinaryFormatError("its \(what) lies outside its loaded segments")
            }
            let (start, overflow) = load.offset.addingReportingOverflow(address - load.address)
            guard !overflow else { throw BinaryFormatError("its \(what) lies outside the file") }
            return try file.bytes(at: start, count: size, what: what)
        }

        /// The dynamic table's entries up to its `DT_NULL`, read at its address, as the loader reads them.
        func dynamicTags() throws(BinaryFormatError) -> [(tag: UInt64, value: UInt64)] {
            let entries = LittleEndianBytes(bytes: try mapped(dynamic.address, dynamic.size, "dynamic segment"))
            var tags: [(tag: UInt64, value: UInt64)] = []
            for index in 0..<(entries.bytes.count / 16) {
                let tag = try entries.u64(index * 16)
                if tag == 0 { return tags }
                tags.append((tag, try entries.u64(index * 16 + 8)))
            }
            throw BinaryFormatError("its dynamic segment does not end with DT_NULL")
        }
    }

    /// The libraries a shared object needs and where the loader looks for them.
    public struct Dependencies: Sendable, Equatable {
        /// `DT_NEEDED`, `DT_AUXILIARY` and `DT_FILTER`: each a file name, or a path when it holds a `/`.
        public var needed: [String] = []
        /// `DT_RPATH`'s folders, searched first when there is no `DT_RUNPATH`.
        public var rpath: [String] = []
        /// `DT_RUNPATH`'s folders, searched after `LD_LIBRARY_PATH`.
        public var runpath: [String] = []

        public init() {}
    }

    public static let programHeaderSize: UInt64 = 56
    /// The most needed libraries and search paths read from one file, and the longest name read.
    public static let dependencyLimit = 1_000, nameLimit = 4_096
}
