#if os(Linux)
/// The start-up check of the index's reading of the runtime's formats, against what the compiler made statically.
enum TypeIndexProbe {
    /// The compiler's own `any ModuleProtocol.Type` of the probe, split into metadata and witness table.
    static var staticWitness: (metadata: UInt, witnessTable: UInt) {
        let words = unsafeBitCast(TypeIndexProbeModule.self as any ModuleProtocol.Type, to: (UInt, UInt).self)
        return (words.0, words.1)
    }

    static let probeName = "ModuleHost.TypeIndexProbeModule"

    /// Throws unless `snapshot` finds the probe by name exactly as the compiler sees it, and makes its services as
    /// the compiler does.
    static func check(_ snapshot: TypeIndexSnapshot) throws(TypeIndexUnavailable) {
        guard let found = snapshot.moduleType(named: probeName) else {
            throw TypeIndexUnavailable("the index does not find \(probeName) in the conformance records")
        }
        let words = unsafeBitCast(found as any ModuleProtocol.Type, to: (UInt, UInt).self)
        guard words == staticWitness, found.moduleIdentifier == TypeIndexProbeModule.moduleIdentifier,
              let descriptor = snapshot.modules[probeName]?.type.descriptor,
              let metadata = UnsafeRawPointer(bitPattern: words.0) else {
            throw TypeIndexUnavailable("the index finds \(probeName) but not as the compiler made it")
        }
        let probe = TypeIndexProbeModule()
        let compiled: any TypeIndexProbeService = probe
        let compiledClass: any TypeIndexProbeClassService = probe
        guard let opaque = cast(probe, descriptor, metadata, snapshot, to: (any TypeIndexProbeService).self),
              let classBound = cast(probe, descriptor, metadata, snapshot, to: (any TypeIndexProbeClassService).self),
              opaque.probe() == TypeIndexProbeModule.probeValue, classBound.probe() == TypeIndexProbeModule.probeValue,
              sameWords(opaque, compiled, from: 3), sameWords(classBound, compiledClass, from: 0) else {
            throw TypeIndexUnavailable("the index makes a service existential unlike the compiler's")
        }
    }

    private static func cast<Service>(_ probe: TypeIndexProbeModule, _ descriptor: UInt, _ metadata: UnsafeRawPointer,
                                      _ snapshot: TypeIndexSnapshot, to service: Service.Type) -> Service? {
        guard let shape = ServiceExistential(of: service),
              let witnessTable = snapshot.witnessTable(typeDescriptor: descriptor, metadata: metadata,
                                                       protocolDescriptor: shape.protocolDescriptor) else { return nil }
        return shape.make(probe, metadata: metadata, witnessTable: witnessTable, as: service)
    }

    /// Whether two existentials of the same type hold the same words from word `first` on (an opaque container's
    /// unused buffer words are not compared).
    private static func sameWords<Service>(_ left: Service, _ right: Service, from first: Int) -> Bool {
        withUnsafeBytes(of: left) { leftBytes in
            withUnsafeBytes(of: right) { rightBytes in
                leftBytes.count == rightBytes.count && leftBytes.count % 8 == 0
                    && (first..<(leftBytes.count / 8)).allSatisfy {
                        leftBytes.load(fromByteOffset: $0 * 8, as: UInt.self) == rightBytes.load(fromByteOffset: $0 * 8, as: UInt.self)
                    }
            }
        }
    }
}
#endif
