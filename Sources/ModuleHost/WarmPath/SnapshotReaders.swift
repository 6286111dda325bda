#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The read sections of every thread, so that immutable snapshots can be read without a lock and freed safely.
///
/// A reader enters its thread's ``ReaderSlot``, loads the published snapshot, reads it and leaves; it takes no
/// lock and writes no memory another thread writes. A writer publishes a new snapshot, then waits for a grace
/// period — until every read section under way when it published has ended — and only then frees the old one.
/// Read sections are short and never block, so the wait is short. One slot per thread, made on its first read,
/// handed to a later thread when its thread ends.
@usableFromInline
enum SnapshotReaders {
    /// The calling thread's slot; `nil` only when the system has no thread-local key to spare (then readers take
    /// their lock instead).
    @usableFromInline
    static func currentSlot() -> ReaderSlot? {
        guard let key = slotKey else { return nil }
        if let raw = pthread_getspecific(key) {
            return ReaderSlot(counter: raw.assumingMemoryBound(to: Atomic<UInt64>.self))
        }
        return register(key)
    }

    /// Waits until every read section that was under way when this was called has ended. Never call it from inside
    /// a read section.
    static func waitForGracePeriod() {
        // A copy made under the lock, in storage of its own (`map`): iterating the shared array while `register`
        // appends to it would be ordered only by the array's copy-on-write check, which Thread Sanitizer cannot see.
        for slot in slots.withLock({ $0.all.map { $0 } }) {
            slot.waitUntilQuiescent()
        }
    }

    /// How many slots exist: at most as many as threads that were reading at once.
    static var slotCount: Int {
        slots.withLock { $0.all.count }
    }

    private struct Slots: Sendable {
        var all: [ReaderSlot] = []
        var free: [ReaderSlot] = []
    }

    private static let slots = Locked(Slots())

    /// The thread-local key that holds each thread's slot; its destructor hands the slot back when a thread ends.
    private static let slotKey: pthread_key_t? = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        let created = pthread_key_create(&key) { raw in SnapshotReaders.handBack(raw) }
        #else
        let created = pthread_key_create(&key) { raw in
            if let raw { SnapshotReaders.handBack(raw) }
        }
        #endif
        return created == 0 ? key : nil
    }()

    /// Gives the calling thread a slot: a free one, or a new one.
    private static func register(_ key: pthread_key_t) -> ReaderSlot? {
        let slot = slots.withLock { slots in
            if let reused = slots.free.popLast() { return reused }
            let made = ReaderSlot.make()
            slots.all.append(made)
            return made
        }
        guard pthread_setspecific(key, UnsafeRawPointer(slot.counter)) == 0 else {
            slots.withLock { $0.free.append(slot) }
            return nil
        }
        return slot
    }

    /// Takes back the slot of a thread that is ending (outside any read section, as every thread is between reads).
    private static func handBack(_ raw: UnsafeMutableRawPointer) {
        let slot = ReaderSlot(counter: raw.assumingMemoryBound(to: Atomic<UInt64>.self))
        slots.withLock { $0.free.append(slot) }
    }
}
