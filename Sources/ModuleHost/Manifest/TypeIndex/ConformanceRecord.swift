#if os(Linux)
/// One protocol conformance descriptor, read from a `swift5_protocol_conformances` record
/// (`TargetProtocolConformanceDescriptor` in the runtime's `Metadata.h`): the protocol, the conforming type's
/// context descriptor and the flags the type index needs. Addresses only; nothing is dereferenced past the checks.
struct ConformanceRecord {
    let descriptor: UInt
    let protocolDescriptor: UInt
    let typeDescriptor: UInt
    /// The conformance can be used by the index: no conditional requirements and no global-actor isolation (whose
    /// casts depend on the calling context, so they are left to the runtime).
    let isPlain: Bool

    /// The record at `recordAddress` (a relative pointer to the descriptor), or `nil` if it is not a conformance
    /// of a Swift type found through a type descriptor.
    init?(record recordAddress: UInt, in memory: BoundedMemory) {
        guard let descriptor = memory.relative(at: recordAddress),
              let protocolDescriptor = memory.relativeIndirectable(at: descriptor),
              let flags = memory.uint32(at: descriptor + 12) else { return nil }
        let typeReferenceKind = (flags >> 3) & 0x7
        let typeDescriptor: UInt?
        switch typeReferenceKind {
        case 0: typeDescriptor = memory.relative(at: descriptor + 4)
        case 1: typeDescriptor = memory.relative(at: descriptor + 4).flatMap { memory.word(at: $0) }
        default: return nil  // Objective-C class names and references
        }
        guard let typeDescriptor, typeDescriptor != 0 else { return nil }
        self.descriptor = descriptor
        self.protocolDescriptor = protocolDescriptor
        self.typeDescriptor = typeDescriptor
        let conditionalRequirements = (flags >> 8) & 0xFF, globalActorIsolated = (flags >> 19) & 1
        isPlain = conditionalRequirements == 0 && globalActorIsolated == 0
    }
}

/// A class's context descriptor (`TargetClassDescriptor`), for the non-generic classes declared at a module's top
/// level: the only ones the index names, `Module.Class`, the one-dot form in which `_typeByName` finds a class.
struct TopLevelClass {
    let descriptor: UInt
    /// `Module.Class`.
    let name: String
    /// `Class`.
    let simpleName: String
    /// The address of the class's metadata access function.
    let accessFunction: UInt

    /// Context descriptor kinds and flags.
    static let moduleKind: UInt32 = 0, classKind: UInt32 = 16, genericFlag: UInt32 = 0x80

    /// The class at `descriptor`, or `nil` when it is not a non-generic class whose parent is a module and whose
    /// names are plain (no dot, no control character).
    init?(descriptor: UInt, in memory: BoundedMemory) {
        guard let flags = memory.uint32(at: descriptor), flags & 0x1F == Self.classKind, flags & Self.genericFlag == 0,
              let parent = memory.relativeIndirectable(at: descriptor + 4),
              let parentFlags = memory.uint32(at: parent), parentFlags & 0x1F == Self.moduleKind,
              let moduleName = memory.relative(at: parent + 8).flatMap(memory.name(at:)), Self.isPlain(moduleName),
              let name = Self.simpleName(at: descriptor, in: memory), Self.isPlain(name),
              let accessFunction = memory.relative(at: descriptor + 12),
              memory.regions.contains(accessFunction, count: 1) else { return nil }
        self.descriptor = descriptor
        self.name = "\(moduleName).\(name)"
        self.simpleName = name
        self.accessFunction = accessFunction
    }

    /// The own name of the class at `descriptor`, whatever its parent; `nil` for other kinds of context.
    static func simpleName(at descriptor: UInt, in memory: BoundedMemory) -> String? {
        guard let flags = memory.uint32(at: descriptor), flags & 0x1F == classKind else { return nil }
        return memory.relative(at: descriptor + 8).flatMap(memory.name(at:))
    }

    private static func isPlain(_ name: String) -> Bool {
        !name.utf8.contains { $0 == UInt8(ascii: ".") || $0 <= 0x1F }
    }
}
#endif
