#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a file could not be read as a library: the reason, for a message.
public struct BinaryFormatError: Error, Sendable, Equatable {
    public let reason: String
    /// The file is no object file at all (as opposed to a malformed one).
    public let notAnObject: Bool
    public init(_ reason: String, notAnObject: Bool = false) {
        self.reason = reason
        self.notAnObject = notAnObject
    }
}

/// Reads ranges of a file through a descriptor someone else opened (with `pread`, so the descriptor's offset is
/// untouched), never trusting an offset or a size: every range is checked against the file's size first.
public struct BoundedFile {
    public let descriptor: Int32
    public let size: UInt64
    /// The most bytes one read may ask for; a table larger than this is refused as malformed.
    public static let largestRead: UInt64 = 64 << 20

    public init(descriptor: Int32, size: UInt64) {
        self.descriptor = descriptor
        self.size = size
    }

    /// The `count` bytes at `offset`; throws when the range does not lie inside the file.
    public func bytes(at offset: UInt64, count: UInt64, what: String) throws(BinaryFormatError) -> [UInt8] {
        let (end, overflow) = offset.addingReportingOverflow(count)
        guard !overflow, end <= size else {
            throw BinaryFormatError("its \(what) (\(count) bytes at offset \(offset)) lies outside the file (\(size) bytes)")
        }
        guard count <= Self.largestRead else { throw BinaryFormatError("its \(what) is implausibly large (\(count) bytes)") }
        var buffer = [UInt8](repeating: 0, count: Int(count))
        var done = 0
        while done < buffer.count {
            let got = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + done, raw.count - done, off_t(offset) + off_t(done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw BinaryFormatError("its \(what) could not be read") }
            done += got
        }
        return buffer
    }
}

/// Little-endian integers out of a byte array, bounds-checked (a short array reads as a format error).
public struct LittleEndianBytes {
    public let bytes: [UInt8]

    public func integer<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, at offset: Int) throws(BinaryFormatError) -> T {
        let width = MemoryLayout<T>.size
        guard offset >= 0, offset <= bytes.count - width else { throw BinaryFormatError("it is truncated") }
        var value: T = 0
        for index in (0..<width).reversed() { value = value << 8 | T(bytes[offset + index]) }
        return value
    }

    public func u16(_ offset: Int) throws(BinaryFormatError) -> UInt64 { UInt64(try integer(UInt16.self, at: offset)) }
    public func u32(_ offset: Int) throws(BinaryFormatError) -> UInt64 { UInt64(try integer(UInt32.self, at: offset)) }
    public func u64(_ offset: Int) throws(BinaryFormatError) -> UInt64 { try integer(UInt64.self, at: offset) }
}
