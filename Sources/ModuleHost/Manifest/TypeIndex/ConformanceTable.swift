#if os(Linux)
/// What one pass over every image's metadata sections finds: each top-level, non-generic class that conforms to
/// ``ModuleProtocol`` directly, by the name `_typeByName` knows it by, and every plain conformance of those classes
/// (for the services they provide). A class name that two classes share anywhere in the process (in any module, at
/// any depth) is left out, so the runtime's own lookup decides it, as it does today.
struct ConformanceTable {
    /// A module type found by name.
    struct Module {
        let type: TopLevelClass
        /// Its `ModuleProtocol` conformance descriptor.
        let conformance: UInt
    }

    private(set) var modules: [String: Module] = [:]
    /// Plain conformances of the module types: type descriptor → protocol descriptor → conformance descriptor.
    private(set) var conformances: [UInt: [UInt: UInt]] = [:]
    /// How many conformance records were read, for the notes.
    private(set) var recordCount = 0

    /// Reads the sections of `list` through `memory`, looking for conformances to `moduleProtocol` (a descriptor).
    init(_ list: MetadataSectionList, memory: BoundedMemory, moduleProtocol: UInt) {
        var byType: [UInt: [UInt: UInt]] = [:]
        var moduleDescriptors: [UInt: UInt] = [:]
        var plain: [ConformanceRecord] = []
        plain.reserveCapacity(list.images.reduce(0) { $0 + Int($1.conformances.count / 4) })
        for image in list.images {
            for record in stride(from: image.conformances.lowerBound, to: image.conformances.upperBound, by: 4) {
                recordCount += 1
                guard let conformance = ConformanceRecord(record: record, in: memory), conformance.isPlain else { continue }
                plain.append(conformance)
                if conformance.protocolDescriptor == moduleProtocol {
                    moduleDescriptors[conformance.typeDescriptor] = conformance.descriptor
                }
            }
        }
        byType.reserveCapacity(moduleDescriptors.count)
        for record in plain where moduleDescriptors[record.typeDescriptor] != nil {
            byType[record.typeDescriptor, default: [:]][record.protocolDescriptor] = record.descriptor
        }
        let shared = Self.sharedSimpleNames(in: list, memory: memory)
        modules.reserveCapacity(moduleDescriptors.count)
        for (descriptor, conformance) in moduleDescriptors {
            guard let type = TopLevelClass(descriptor: descriptor, in: memory), !shared.contains(type.simpleName) else { continue }
            modules[type.name] = Module(type: type, conformance: conformance)
        }
        conformances = byType
    }

    /// The simple names that more than one class descriptor in the process has.
    private static func sharedSimpleNames(in list: MetadataSectionList, memory: BoundedMemory) -> Set<String> {
        var seen: Set<String> = [], shared: Set<String> = []
        seen.reserveCapacity(list.images.reduce(0) { $0 + Int($1.types.count / 4) })
        for image in list.images {
            for record in stride(from: image.types.lowerBound, to: image.types.upperBound, by: 4) {
                // A type metadata record: a relative pointer whose low two bits say whether it is indirect.
                guard let raw = memory.uint32(at: record) else { continue }
                let kind = raw & 0x3
                let offset = Int(Int32(bitPattern: raw & ~0x3))
                guard offset != 0, kind <= 1 else { continue }
                let (slot, overflow) = Int(bitPattern: record).addingReportingOverflow(offset)
                guard !overflow else { continue }
                let descriptor = kind == 0 ? UInt(bitPattern: slot) : memory.word(at: UInt(bitPattern: slot))
                guard let descriptor, let name = TopLevelClass.simpleName(at: descriptor, in: memory) else { continue }
                if !seen.insert(name).inserted { shared.insert(name) }
            }
        }
        return shared
    }
}
#endif
