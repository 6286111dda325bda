#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The address ranges the dynamic linker has mapped for every loaded image (their `PT_LOAD` segments), and reads
/// of this process's memory bounded by them: the type index reads the Swift runtime's metadata through pointers
/// it computes, and never dereferences one that does not land, whole, inside a mapped segment.
struct MappedRegions {
    /// Sorted, non-overlapping `[start, end)` ranges.
    private(set) var ranges: [Range<UInt>] = []

    /// The `PT_LOAD` segments of every image loaded now, from `dl_iterate_phdr`; `nil` if it is not available.
    static func current() -> MappedRegions? {
        // Looked up rather than imported: the C library's module does not export <link.h> to Swift.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dl_iterate_phdr") else { return nil }
        typealias Visit = @convention(c) (UnsafeRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32
        typealias Iterate = @convention(c) (Visit, UnsafeMutableRawPointer?) -> Int32
        let iterate = unsafeBitCast(symbol, to: Iterate.self)
        let collector = Collector()
        _ = iterate({ info, size, context in
            guard let info, let context, size >= 26 else { return 0 }
            Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().add(info)
            return 0
        }, Unmanaged.passUnretained(collector).toOpaque())
        withExtendedLifetime(collector) {}
        var regions = MappedRegions()
        regions.ranges = Self.merged(collector.ranges)
        return regions
    }

    /// Whether `count` bytes at `address` lie inside one mapped range.
    func contains(_ address: UInt, count: UInt) -> Bool {
        count <= bytesAvailable(at: address)
    }

    /// How many bytes from `address` to the end of the mapped range holding it (0 when none holds it).
    func bytesAvailable(at address: UInt) -> UInt {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound <= address { low = middle + 1 } else { high = middle }
        }
        guard low < ranges.count, ranges[low].lowerBound <= address else { return 0 }
        return ranges[low].upperBound - address
    }

    private static func merged(_ ranges: [Range<UInt>]) -> [Range<UInt>] {
        var result: [Range<UInt>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// Gathers segments inside the `dl_iterate_phdr` callback.
    private final class Collector {
        var ranges: [Range<UInt>] = []

        /// One image's `dl_phdr_info` (64-bit layout): its load address, and its program headers.
        func add(_ info: UnsafeRawPointer) {
            let base = info.load(as: UInt.self)
            guard let headers = info.load(fromByteOffset: 16, as: UnsafeRawPointer?.self) else { return }
            let count = Int(info.load(fromByteOffset: 24, as: UInt16.self))
            let loadable: UInt32 = 1, readable: UInt32 = 4, headerSize = 56
            for index in 0..<count {
                let header = headers + index * headerSize
                guard header.load(as: UInt32.self) == loadable,
                      header.load(fromByteOffset: 4, as: UInt32.self) & readable != 0 else { continue }
                let (start, overflow) = base.addingReportingOverflow(header.load(fromByteOffset: 16, as: UInt.self))
                let size = header.load(fromByteOffset: 40, as: UInt.self)
                guard !overflow, size > 0, start <= UInt.max - size else { continue }
                ranges.append(start..<(start + size))
            }
        }
    }
}
#endif
