/// Finds module types by name, and their services, from one pass over the Swift runtime's metadata sections per
/// process, instead of the runtime's scan of every record for each type and each cast (see
/// docs/PERFORMANCE-HISTORY.md, "2026-11-27: a module type by name without a scan per type").
///
/// Built on first use and rebuilt when a library has been loaded since (plugins register their sections as they
/// load). Anything it does not hold (a name it cannot prove unique, a type that conforms through a superclass, a
/// generic or nested type) is left to the runtime, as before; so is everything when its start-up check of the
/// runtime's formats fails (``unavailableReason`` then says why, for the host to report). Linux only: elsewhere it
/// holds nothing.
package enum TypeIndex {
    private struct State {
        #if os(Linux)
        var snapshot: TypeIndexSnapshot?
        /// Type descriptors of the module classes handed out (or found by name for a service), by metadata address.
        var descriptors: [UInt: UInt] = [:]
        #endif
        var unavailable: TypeIndexUnavailable?
        var threshold = BuildThreshold()
    }

    /// When building the index is worth it: building it is one pass over every record (about 1 ms for app-shell's
    /// 4,100), worth it only when it saves more scans than that. A process looks up ``lookupsBeforeBuilding``
    /// names through the runtime first, unless the manifest being read names more modules than that: then the
    /// index is built on its first lookup, and none of its modules costs a scan.
    struct BuildThreshold {
        /// Lookups asked through ``lookUpModuleType(named:among:)`` before the index was built.
        private(set) var lookupsWithoutIndex = 0

        /// Counts one lookup among `batch` names looked up together; whether the index should answer it.
        mutating func allowsBuilding(forLookupAmong batch: Int) -> Bool {
            lookupsWithoutIndex += 1
            return max(lookupsWithoutIndex, batch) > TypeIndex.lookupsBeforeBuilding
        }
    }

    /// How many names a process looks up through the runtime before the index is built.
    static let lookupsBeforeBuilding = 16

    private static let state = Locked(State())

    /// Set, the index is not consulted in this task and its children: the runtime answers every question, as it
    /// does when the start-up check fails. For tests that compare the two paths.
    @TaskLocal static var isBypassed = false

    private static var isEnabled: Bool { !isBypassed }

    /// Why the index is not used, or `nil` when it is (or has not been built yet).
    package static var unavailableReason: String? { state.withLock { $0.unavailable?.reason } }

    /// ``moduleType(named:)`` once the index is worth building (``BuildThreshold``) for a lookup among `batch`
    /// names looked up together; `nil` before, so a host of a few modules asks the runtime, as before, and never
    /// builds the index.
    static func lookUpModuleType(named name: String, among batch: Int = 1) -> (any ModuleProtocol.Type)? {
        #if os(Linux)
        guard isEnabled else { return nil }
        let worthBuilding = state.withLock { state -> Bool in
            state.snapshot != nil || state.threshold.allowsBuilding(forLookupAmong: batch)
        }
        return worthBuilding ? moduleType(named: name) : nil
        #else
        return nil
        #endif
    }

    /// The module type named `name` with its `ModuleProtocol` conformance, when the index holds it.
    static func moduleType(named name: String) -> (any ModuleProtocol.Type)? {
        #if os(Linux)
        guard isEnabled, let snapshot = current(rebuildingIfStale: false) else { return nil }
        let found = snapshot.modules[name] != nil ? snapshot : current(rebuildingIfStale: true)
        guard let found, let module = found.modules[name], let type = found.moduleType(named: name) else { return nil }
        // The name the index built must be the type's own; a mismatch leaves the name to the runtime.
        guard TypeName.of(type) == name else { return nil }
        state.withLock { $0.descriptors[UInt(bitPattern: ObjectIdentifier(type))] = module.type.descriptor }
        return type
        #else
        return nil
        #endif
    }

    /// `module` as `Service`, when the index holds its class and the conformance of its class to `Service`. The
    /// class is known by its metadata when the index handed it out, and found by its name otherwise (a module
    /// looked up before the index was built, or made by code).
    static func service<Service>(_ module: any ModuleProtocol, as service: Service.Type) -> Service? {
        #if os(Linux)
        guard isEnabled, let shape = ServiceExistential(of: service) else { return nil }
        let moduleType = type(of: module)
        let metadataAddress = UInt(bitPattern: ObjectIdentifier(moduleType))
        let (snapshot, known) = state.withLock { ($0.snapshot, $0.descriptors[metadataAddress]) }
        guard let snapshot, let metadata = UnsafeRawPointer(bitPattern: metadataAddress),
              let descriptor = known ?? descriptor(of: moduleType, in: snapshot, metadata: metadata),
              let witnessTable = snapshot.witnessTable(typeDescriptor: descriptor, metadata: metadata,
                                                       protocolDescriptor: shape.protocolDescriptor) else { return nil }
        return shape.make(module, metadata: metadata, witnessTable: witnessTable, as: service)
        #else
        return nil
        #endif
    }

    #if os(Linux)
    /// The descriptor of a module class the index did not hand out, found by its name and kept for its next service.
    private static func descriptor(of moduleType: any ModuleProtocol.Type, in snapshot: TypeIndexSnapshot,
                                   metadata: UnsafeRawPointer) -> UInt? {
        guard let found = snapshot.descriptor(named: TypeName.of(moduleType), metadata: metadata) else { return nil }
        state.withLock { $0.descriptors[UInt(bitPattern: metadata)] = found }
        return found
    }
    #endif

    /// Forgets the index, so the next lookup reads the sections again (after a plugin library is loaded).
    static func invalidate() {
        #if os(Linux)
        state.withLock { $0.snapshot = nil }
        #endif
    }

    #if os(Linux)
    /// The index, built if there is none (or, with `rebuildingIfStale`, if images were added since); `nil` when
    /// the runtime's formats are not the expected ones.
    private static func current(rebuildingIfStale: Bool) -> TypeIndexSnapshot? {
        state.withLock { state -> TypeIndexSnapshot? in
            guard state.unavailable == nil else { return nil }
            if let snapshot = state.snapshot,
               !rebuildingIfStale || snapshot.imageCount == MetadataSectionList.imageCount() {
                return snapshot
            }
            do throws(TypeIndexUnavailable) {
                let snapshot = try TypeIndexSnapshot.build()
                state.snapshot = snapshot
                return snapshot
            } catch {
                state.unavailable = error
                return nil
            }
        }
    }
    #endif
}
