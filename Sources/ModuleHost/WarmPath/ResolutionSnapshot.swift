/// An immutable copy of the resolved modules and services, read by warm resolves without a lock.
///
/// Services are found by the identity of their static type in an open-addressing table (a multiply-shift hash of
/// the identity, linear probing), so a lookup hashes no bytes and retains nothing: the snapshot owns the boxes, and
/// a reader copies the service out of its box while it holds the snapshot (see ``WarmResolutions``).
@usableFromInline
final class ResolutionSnapshot: @unchecked Sendable {
    // `@unchecked`: every stored property is set in `init` and never written again.
    /// The loaded (or injected) modules by identifier.
    @usableFromInline let modules: [ModuleIdentifier: any ModuleProtocol]
    /// The boxes, kept alive by this snapshot; the table below points at them unretained.
    private let boxes: [ServiceBox]
    @usableFromInline let keys: UnsafeMutablePointer<UInt>
    @usableFromInline let values: UnsafeMutablePointer<Unmanaged<AnyObject>>
    /// The table's capacity minus one (a power of two minus one).
    @usableFromInline let mask: Int
    /// `64 - log2(capacity)`: how far the hash is shifted to index the table.
    @usableFromInline let shift: UInt64

    /// The empty snapshot.
    convenience init() {
        self.init(modules: [:], services: [:])
    }

    /// A snapshot of `modules` and of `services`, boxes keyed by `ObjectIdentifier` of their static type.
    init(modules: [ModuleIdentifier: any ModuleProtocol], services: [ObjectIdentifier: ServiceBox]) {
        var capacity = 4
        var bits: UInt64 = 2
        while capacity < services.count * 2 {
            capacity *= 2
            bits += 1
        }
        let keys = UnsafeMutablePointer<UInt>.allocate(capacity: capacity)
        keys.initialize(repeating: 0, count: capacity)
        let values = UnsafeMutablePointer<Unmanaged<AnyObject>>.allocate(capacity: capacity)
        var boxes: [ServiceBox] = []
        boxes.reserveCapacity(services.count)
        for (key, box) in services {
            var index = Self.index(of: Self.bits(of: key), shift: 64 - bits)
            while keys[index] != 0 { index = (index &+ 1) & (capacity - 1) }
            keys[index] = Self.bits(of: key)
            (values + index).initialize(to: Unmanaged.passUnretained(box as AnyObject))
            boxes.append(box)
        }
        // A copy in storage of its own: sharing the cache's, a later write to the cache under its lock would pass
        // the copy-on-write check once this snapshot is gone, without an order Thread Sanitizer can see between
        // that write and the lock-free reads of this one.
        var ownModules = [ModuleIdentifier: any ModuleProtocol](minimumCapacity: modules.count)
        for (identifier, module) in modules { ownModules[identifier] = module }
        self.modules = ownModules
        self.boxes = boxes
        self.keys = keys
        self.values = values
        self.mask = capacity - 1
        self.shift = 64 - bits
    }

    deinit {
        keys.deallocate()
        values.deallocate()
    }

    /// The box stored for the service type whose identity is `key`, unretained: valid while this snapshot is.
    @inlinable
    func serviceBox(_ key: ObjectIdentifier) -> Unmanaged<AnyObject>? {
        let wanted = Self.bits(of: key)
        var index = Self.index(of: wanted, shift: shift)
        while true {
            let found = keys[index]
            if found == wanted { return values[index] }
            if found == 0 { return nil }
            index = (index &+ 1) & mask
        }
    }

    @inlinable
    static func bits(of key: ObjectIdentifier) -> UInt {
        UInt(bitPattern: key)
    }

    @inlinable
    static func index(of bits: UInt, shift: UInt64) -> Int {
        // Fibonacci hashing: the high bits of the product are well mixed even for aligned pointers.
        Int(truncatingIfNeeded: (UInt64(bits) &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }
}
