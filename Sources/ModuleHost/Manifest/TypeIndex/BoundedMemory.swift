#if os(Linux)
/// Reads of this process's own memory, each checked against ``MappedRegions`` first, in the forms the Swift
/// runtime's metadata uses: 32-bit fields, pointers, relative pointers (a signed 32-bit offset from the field's
/// own address) and NUL-terminated names. A read that would leave the mapped segments returns `nil`.
struct BoundedMemory {
    let regions: MappedRegions

    /// The longest name read; Swift identifiers in metadata are far shorter.
    static let maximumNameLength = 1024

    func uint32(at address: UInt) -> UInt32? {
        guard address % 4 == 0, regions.contains(address, count: 4),
              let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
        return pointer.load(as: UInt32.self)
    }

    func word(at address: UInt) -> UInt? {
        guard address % UInt(MemoryLayout<UInt>.alignment) == 0,
              regions.contains(address, count: UInt(MemoryLayout<UInt>.size)),
              let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
        return pointer.load(as: UInt.self)
    }

    /// The target of the relative direct pointer stored at `address`; `nil` for a null (zero) offset.
    func relative(at address: UInt) -> UInt? {
        guard let raw = uint32(at: address) else { return nil }
        let offset = Int32(bitPattern: raw)
        guard offset != 0 else { return nil }
        let (target, overflow) = Int(bitPattern: address).addingReportingOverflow(Int(offset))
        return overflow ? nil : UInt(bitPattern: target)
    }

    /// The target of the relative indirectable pointer at `address`: with its low bit set the offset points at a
    /// pointer to the target (through the global offset table), which is read too.
    func relativeIndirectable(at address: UInt) -> UInt? {
        guard let raw = uint32(at: address) else { return nil }
        let offset = Int32(bitPattern: raw)
        guard offset != 0 else { return nil }
        let (slot, overflow) = Int(bitPattern: address).addingReportingOverflow(Int(offset & ~1))
        guard !overflow else { return nil }
        guard offset & 1 != 0 else { return UInt(bitPattern: slot) }
        guard let target = word(at: UInt(bitPattern: slot)), target != 0 else { return nil }
        return target
    }

    /// The NUL-terminated UTF-8 name at `address`, if it ends within bounds and within ``maximumNameLength``.
    func name(at address: UInt) -> String? {
        let limit = Int(min(regions.bytesAvailable(at: address), UInt(Self.maximumNameLength)))
        guard limit > 0, let start = UnsafeRawPointer(bitPattern: address) else { return nil }
        let bytes = UnsafeRawBufferPointer(start: start, count: limit)
        guard let length = bytes.firstIndex(of: 0), length > 0 else { return nil }
        return String(validating: UnsafeRawBufferPointer(rebasing: bytes[..<length]), as: UTF8.self)
    }
}
#endif
