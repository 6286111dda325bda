#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks the Swift runtime whether a type conforms to the protocols an existential type is made of, with no value
/// of either: what `as?` would answer for an instance.
///
/// The first time it is asked of a type, the runtime scans every conformance record in the process, so this is
/// for checks off the start-up path (`validate`), never for registration or loading.
enum ProtocolConformance {
    /// `swift_conformsToProtocol(type, protocol)`: the witness table, or `nil` when `type` does not conform.
    private typealias ConformsToProtocol = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UnsafeRawPointer?

    /// The runtime's entry point, found once; `nil` if the runtime does not export it.
    private static let conformsToProtocol: ConformsToProtocol? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: defaultHandle), "swift_conformsToProtocol") else { return nil }
        return unsafeBitCast(symbol, to: ConformsToProtocol.self)
    }()

    #if canImport(Darwin)
    /// `RTLD_DEFAULT`: every image loaded.
    private static let defaultHandle = -2
    #else
    /// `RTLD_DEFAULT`: every image loaded.
    private static let defaultHandle = 0
    #endif

    /// The metadata kind of a protocol existential (`any P`, `any P & Q`): `Existential` in the runtime's ABI.
    private static let existentialKind: UInt = 0x303
    /// The flag of an existential with a superclass constraint (`any Base & P`), whose metadata then holds it.
    private static let hasSuperclass: UInt32 = 0x4000_0000

    /// Whether `type` conforms to every protocol of `existential` (such as `(any P).self`), as `as? any P` would
    /// answer for an instance; `nil` when that cannot be told here: `existential` is not a plain protocol
    /// existential (a concrete type, a superclass or an Objective-C protocol in it, constrained associated types),
    /// or the runtime does not export the question.
    static func does(_ type: Any.Type, conformTo existential: Any.Type) -> Bool? {
        guard let conformsToProtocol else { return nil }
        let metadata = unsafeBitCast(existential, to: UnsafeRawPointer.self)
        let word = MemoryLayout<UInt>.size
        // The existential's metadata: its kind, its flags and protocol count (32 bits each), then one reference
        // per protocol (after the superclass, when there is one).
        guard metadata.load(as: UInt.self) == existentialKind else { return nil }
        let flags = metadata.load(fromByteOffset: word, as: UInt32.self)
        let count = Int(metadata.load(fromByteOffset: word + 4, as: UInt32.self))
        guard flags & hasSuperclass == 0 else { return nil }
        let subject = unsafeBitCast(type, to: UnsafeRawPointer.self)
        for index in 0..<count {
            let reference = metadata.load(fromByteOffset: word + 8 + index * word, as: UInt.self)
            // The low bit marks an Objective-C protocol, which this question does not cover.
            guard reference & 1 == 0, let descriptor = UnsafeRawPointer(bitPattern: reference) else { return nil }
            if conformsToProtocol(subject, descriptor) == nil { return false }
        }
        return true
    }
}
