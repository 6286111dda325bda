#if os(Linux)
/// Makes a service value (`any Service`) from a module instance and a witness table, as the compiler lays the
/// existential out (`ExistentialTypeMetadata` and the containers in the runtime's `Metadata.h`), for the shape
/// `.service(P.self)` declares: one Swift protocol (marker protocols such as `Sendable` take no room), no
/// superclass. Other shapes are left to the runtime's cast.
struct ServiceExistential {
    /// The protocol's descriptor.
    let protocolDescriptor: UInt
    /// A class existential (reference, witness table); otherwise an opaque container (three-word buffer holding
    /// the reference, metadata, witness table).
    let isClassBound: Bool

    private static let existentialKind: UInt = 0x303
    private static let witnessTableCountMask: UInt32 = 0x00FF_FFFF, anyConstraintBit: UInt32 = 0x8000_0000
    private static let superclassOrSpecialMask: UInt32 = 0x7F00_0000

    /// The shape of `Service`, or `nil` when it is not an existential of one Swift protocol.
    init?<Service>(of service: Service.Type) {
        // Metadata of a type the program names, read only after its kind says which layout follows.
        guard let metadata = UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(Service.self))),
              metadata.load(as: UInt.self) == Self.existentialKind else { return nil }
        let flags = metadata.load(fromByteOffset: 8, as: UInt32.self)
        let protocolCount = metadata.load(fromByteOffset: 12, as: UInt32.self)
        guard protocolCount == 1, flags & Self.witnessTableCountMask == 1, flags & Self.superclassOrSpecialMask == 0 else {
            return nil
        }
        let reference = metadata.load(fromByteOffset: 16, as: UInt.self)
        guard reference & 1 == 0, reference != 0 else { return nil }  // the low bit marks an Objective-C protocol
        protocolDescriptor = reference
        isClassBound = flags & Self.anyConstraintBit == 0
        guard MemoryLayout<Service>.size == (isClassBound ? 16 : 40) else { return nil }
    }

    /// `object` as a `Service` through `witnessTable` (of the conformance of `metadata`, `object`'s class).
    func make<Service>(_ object: AnyObject, metadata: UnsafeRawPointer, witnessTable: UnsafeRawPointer,
                       as service: Service.Type) -> Service? {
        guard MemoryLayout<Service>.size == (isClassBound ? 16 : 40) else { return nil }
        // The container's words: the reference first; then the witness table (class existential), or two unused
        // buffer words, the metadata and the witness table (opaque container).
        var words: (UInt, UInt, UInt, UInt, UInt) = (UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()), 0, 0, 0, 0)
        if isClassBound {
            words.1 = UInt(bitPattern: witnessTable)
        } else {
            (words.3, words.4) = (UInt(bitPattern: metadata), UInt(bitPattern: witnessTable))
        }
        // A copy: it retains the object, which the words never owned. The words live on the stack and both closures
        // return `Service` itself: nothing is allocated.
        return withExtendedLifetime(object) { () -> Service in
            withUnsafeBytes(of: &words) { $0.load(as: Service.self) }
        }
    }
}
#endif
