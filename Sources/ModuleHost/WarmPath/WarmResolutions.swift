import Synchronization

/// The warm path of resolution: the latest ``ResolutionSnapshot``, read by every warm resolve without a lock and
/// replaced by the registry when modules load, unload or are injected.
///
/// A read enters the calling thread's ``ReaderSlot``, loads the snapshot, copies the module or service out and
/// leaves: no lock, no retain of the snapshot or of a box, no write to memory another thread writes. A publish
/// swaps the snapshot in and frees the old one only after every read that may still use it has ended
/// (``SnapshotReaders/waitForGracePeriod()``), so no snapshot outlives its readers and none is kept longer.
@usableFromInline
final class WarmResolutions: Sendable {
    @usableFromInline let current: Atomic<Unmanaged<ResolutionSnapshot>>

    /// Starts with the empty snapshot.
    init() {
        current = Atomic(.passRetained(ResolutionSnapshot()))
    }

    deinit {
        current.load(ordering: .acquiring).release()
    }

    /// The cached (or injected) service of static type `Service`; `nil` when the snapshot has none.
    @inlinable
    func service<Service: Sendable>(_ type: Service.Type) -> Service? {
        guard let slot = SnapshotReaders.currentSlot() else { return nil }
        let ticket = slot.enter()
        defer { slot.leave(ticket) }
        return current.load(ordering: .sequentiallyConsistent)._withUnsafeGuaranteedRef { snapshot in
            // Boxes are stored only under the identity of their own static type, so the box holds a `Service`.
            snapshot.serviceBox(ObjectIdentifier(Service.self))?._withUnsafeGuaranteedRef {
                unsafeDowncast($0, to: ServiceBox.self).storage.assumingMemoryBound(to: Service.self).pointee
            }
        }
    }

    /// The box of the cached (or injected) service whose static type has identity `key`, retained; `nil` when the
    /// snapshot has none.
    func serviceBox(_ key: ObjectIdentifier) -> ServiceBox? {
        guard let slot = SnapshotReaders.currentSlot() else { return nil }
        let ticket = slot.enter()
        defer { slot.leave(ticket) }
        return current.load(ordering: .sequentiallyConsistent)._withUnsafeGuaranteedRef { snapshot in
            snapshot.serviceBox(key).map { unsafeDowncast($0.takeUnretainedValue(), to: ServiceBox.self) }
        }
    }

    /// The cached (or injected) module for `identifier`; `nil` when the snapshot has none.
    @inlinable
    func module(_ identifier: ModuleIdentifier) -> (any ModuleProtocol)? {
        guard let slot = SnapshotReaders.currentSlot() else { return nil }
        let ticket = slot.enter()
        defer { slot.leave(ticket) }
        return current.load(ordering: .sequentiallyConsistent)._withUnsafeGuaranteedRef { $0.modules[identifier] }
    }

    /// Makes `snapshot` the one readers see; returns the one it replaced, which the caller frees only after every
    /// read that may still use it has ended (``SnapshotReaders/waitForGracePeriod()``). Callers serialize
    /// replacements, and never replace from inside a read.
    func replace(with snapshot: ResolutionSnapshot) -> Unmanaged<ResolutionSnapshot> {
        current.exchange(.passRetained(snapshot), ordering: .sequentiallyConsistent)
    }

    /// Whether the snapshot readers see now holds a module for `identifier`. For the caller that serializes
    /// replacements, while it does: the snapshot cannot be replaced meanwhile.
    func holdsModule(_ identifier: ModuleIdentifier) -> Bool {
        current.load(ordering: .acquiring)._withUnsafeGuaranteedRef { $0.modules[identifier] != nil }
    }

    /// Whether the snapshot readers see now holds a service under `key`; as ``holdsModule(_:)``.
    func holdsService(_ key: ObjectIdentifier) -> Bool {
        current.load(ordering: .acquiring)._withUnsafeGuaranteedRef { $0.serviceBox(key) != nil }
    }
}
