#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A built, checked index: the table, and the runtime entry points it calls. Addresses are stored as integers.
struct TypeIndexSnapshot: Sendable {
    let modules: [String: ConformanceTable.Module]
    let conformances: [UInt: [UInt: UInt]]
    let imageCount: Int
    let recordCount: Int
    private let getWitnessTable: UInt

    /// `swift_getWitnessTable(conformance, type, instantiationArgs)`.
    private typealias GetWitnessTable = @convention(c) (UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer?) -> UnsafeRawPointer?
    /// A non-generic type's metadata access function, called with a blocking request for complete metadata; the
    /// first word of its response (the metadata) comes back in the same register under the C and Swift conventions.
    private typealias AccessFunction = @convention(c) (Int) -> UnsafeRawPointer?

    /// Reads every image's sections once; throws a reason when the format is not the one expected.
    static func build() throws(TypeIndexUnavailable) -> TypeIndexSnapshot {
        guard MemoryLayout<UInt>.size == 8, MemoryLayout<any ModuleProtocol.Type>.size == 16 else {
            throw TypeIndexUnavailable("this platform's pointers are not 64-bit")
        }
        guard let regions = MappedRegions.current() else { throw TypeIndexUnavailable("dl_iterate_phdr is not available") }
        guard let getWitnessTable = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_getWitnessTable") else {
            throw TypeIndexUnavailable("the runtime does not export swift_getWitnessTable")
        }
        let memory = BoundedMemory(regions: regions)
        let list = MetadataSectionList.current(within: regions)
        if let problem = list.problem { throw TypeIndexUnavailable(problem) }
        let probe = TypeIndexProbe.staticWitness
        guard let conformance = memory.word(at: probe.witnessTable),
              let moduleProtocol = memory.relativeIndirectable(at: conformance) else {
            throw TypeIndexUnavailable("a witness table does not start with its conformance descriptor")
        }
        let table = ConformanceTable(list, memory: memory, moduleProtocol: moduleProtocol)
        let snapshot = TypeIndexSnapshot(modules: table.modules, conformances: table.conformances, imageCount: list.images.count,
                                         recordCount: table.recordCount, getWitnessTable: UInt(bitPattern: getWitnessTable))
        try TypeIndexProbe.check(snapshot)
        return snapshot
    }

    /// The module type named `name`, with its `ModuleProtocol` conformance, if the index holds it.
    func moduleType(named name: String) -> (any ModuleProtocol.Type)? {
        guard let module = modules[name], let metadata = metadata(of: module.type),
              let witnessTable = witnessTable(module.conformance, metadata) else { return nil }
        return unsafeBitCast((metadata, witnessTable), to: (any ModuleProtocol.Type).self)
    }

    /// The type descriptor of the module class named `name`, if the index holds it and its metadata is `metadata`.
    func descriptor(named name: String, metadata: UnsafeRawPointer) -> UInt? {
        guard let module = modules[name], self.metadata(of: module.type) == metadata else { return nil }
        return module.type.descriptor
    }

    /// The witness table of the conformance of the type at `metadata` (described by `descriptor`) to the protocol
    /// described by `protocolDescriptor`, if the index holds that conformance.
    func witnessTable(typeDescriptor: UInt, metadata: UnsafeRawPointer, protocolDescriptor: UInt) -> UnsafeRawPointer? {
        guard let conformance = conformances[typeDescriptor]?[protocolDescriptor] else { return nil }
        return witnessTable(conformance, metadata)
    }

    func metadata(of type: TopLevelClass) -> UnsafeRawPointer? {
        guard let function = UnsafeRawPointer(bitPattern: type.accessFunction) else { return nil }
        return unsafeBitCast(function, to: AccessFunction.self)(0)
    }

    private func witnessTable(_ conformance: UInt, _ metadata: UnsafeRawPointer) -> UnsafeRawPointer? {
        guard let function = UnsafeRawPointer(bitPattern: getWitnessTable),
              let descriptor = UnsafeRawPointer(bitPattern: conformance) else { return nil }
        return unsafeBitCast(function, to: GetWitnessTable.self)(descriptor, metadata, nil)
    }
}

/// Why the type index is not used in this process; ModuleHost then asks the runtime, as before.
struct TypeIndexUnavailable: Error, Sendable {
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
#endif
