#if os(Linux)
/// The metadata sections of every image the Swift runtime has registered (each image registers its own as it
/// loads, plugins included), as `swift_enumerateAllMetadataSections` reports them: the layout of its records is
/// `struct MetadataSections` in the runtime's `MetadataSections.h` (version 1 and later share the fields read here).
struct MetadataSectionList {
    /// One image's sections that the type index reads: `[start, start + length)` ranges of 32-bit records.
    struct Image {
        var conformances: Range<UInt>
        var types: Range<UInt>
    }

    var images: [Image] = []
    /// Why the list does not have the expected format, or `nil` when it does.
    var problem: String?

    /// The byte offsets of the fields read in `struct MetadataSections`.
    private static let conformancesOffset = 48, typesOffset = 64

    /// The sections registered now, each checked to lie inside `regions`.
    static func current(within regions: MappedRegions) -> MetadataSectionList {
        let collector = Collector(regions: regions)
        swiftEnumerateAllMetadataSections({ sections, context in
            guard let context else { return false }
            return Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().add(sections)
        }, Unmanaged.passUnretained(collector).toOpaque())
        return withExtendedLifetime(collector) { collector.list }
    }

    /// How many images have registered sections; cheap, to notice a library loaded since an index was built.
    static func imageCount() -> Int {
        let counter = Counter()
        swiftEnumerateAllMetadataSections({ _, context in
            guard let context else { return false }
            Unmanaged<Counter>.fromOpaque(context).takeUnretainedValue().count += 1
            return true
        }, Unmanaged.passUnretained(counter).toOpaque())
        return withExtendedLifetime(counter) { counter.count }
    }

    private final class Counter {
        var count = 0
    }

    private final class Collector {
        let memory: BoundedMemory
        var list = MetadataSectionList()

        init(regions: MappedRegions) {
            memory = BoundedMemory(regions: regions)
        }

        /// Reads one `MetadataSections`; stops the enumeration at the first that does not match the format.
        func add(_ sections: UnsafeRawPointer) -> Bool {
            let address = UInt(bitPattern: Int(bitPattern: sections))
            guard let version = memory.word(at: address), (1...64).contains(version) else {
                list.problem = "a metadata sections record of an unknown version"
                return false
            }
            guard let conformances = range(at: address + UInt(MetadataSectionList.conformancesOffset)),
                  let types = range(at: address + UInt(MetadataSectionList.typesOffset)) else {
                list.problem = "a metadata section outside the image that registered it"
                return false
            }
            list.images.append(Image(conformances: conformances, types: types))
            return true
        }

        /// A `MetadataSectionRange` (start, length) whose bytes are all mapped, of whole 32-bit records.
        private func range(at address: UInt) -> Range<UInt>? {
            guard let start = memory.word(at: address), let length = memory.word(at: address + 8) else { return nil }
            if length == 0 { return start..<start }
            guard length % 4 == 0, start % 4 == 0, memory.regions.contains(start, count: length) else { return nil }
            return start..<(start + length)
        }
    }
}

/// The Swift runtime's enumeration of registered metadata sections (ELF platforms); the body returns whether to go on.
@_silgen_name("swift_enumerateAllMetadataSections")
private func swiftEnumerateAllMetadataSections(
    _ body: @convention(c) (UnsafeRawPointer, UnsafeMutableRawPointer?) -> Bool, _ context: UnsafeMutableRawPointer?
)
#endif
