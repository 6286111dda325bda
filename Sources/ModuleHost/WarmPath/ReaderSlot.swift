#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// One thread's announcement that it is reading a published snapshot (see ``SnapshotReaders``).
///
/// A counter on a cache line of its own, written only by its thread: odd while the thread is inside a read
/// section, even outside. Entering is one sequentially consistent store and leaving one releasing store, both to
/// memory no other thread writes, so readers on different threads never contend. A writer that replaced a snapshot
/// waits until every slot that was odd has changed before it frees the old one.
@usableFromInline
struct ReaderSlot: @unchecked Sendable {
    // `@unchecked`: the pointee is an atomic, so sharing the pointer between threads is safe.
    @usableFromInline let counter: UnsafeMutablePointer<Atomic<UInt64>>

    /// A new slot, outside any read section. Slots are never freed: a thread's slot is reused by a later thread.
    static func make() -> ReaderSlot {
        let line = UnsafeMutableRawPointer.allocate(byteCount: cacheLine, alignment: cacheLine)
        let counter = line.bindMemory(to: Atomic<UInt64>.self, capacity: 1)
        counter.initialize(to: Atomic(0))
        return ReaderSlot(counter: counter)
    }

    @usableFromInline
    init(counter: UnsafeMutablePointer<Atomic<UInt64>>) {
        self.counter = counter
    }

    /// Enters a read section; returns the ticket that ``leave(_:)`` takes.
    ///
    /// The store is sequentially consistent, so a writer's later check of this slot cannot miss it and this thread's
    /// next load of the published snapshot cannot move before it.
    @inlinable
    func enter() -> UInt64 {
        let ticket = counter.pointee.load(ordering: .relaxed) &+ 1
        counter.pointee.store(ticket, ordering: .sequentiallyConsistent)
        return ticket
    }

    /// Leaves the read section entered with `ticket`: every read of the snapshot happens before it.
    @inlinable
    func leave(_ ticket: UInt64) {
        counter.pointee.store(ticket &+ 1, ordering: .releasing)
    }

    /// Waits until this slot's thread is no longer in the read section it was in when this was called, if any.
    func waitUntilQuiescent() {
        let seen = counter.pointee.load(ordering: .sequentiallyConsistent)
        guard seen & 1 == 1 else { return }
        var spins = 0
        while counter.pointee.load(ordering: .acquiring) == seen {
            spins += 1
            // Read sections run no user code and never block, so this ends soon; yield if the reader was preempted.
            if spins > 64 { _ = sched_yield() }
        }
    }

    /// The size and alignment of a slot: a cache line, so that no two slots share one.
    private static let cacheLine = 128
}
