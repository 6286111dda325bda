#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ModuleHost

/// Which manager loaded each seed module instance, for the seed's `moduleManager` property: SwiftyArchitecture kept
/// it as an associated object, which Swift on Linux does not have. Entries hold the module and its manager weakly,
/// so the table keeps neither alive; entries of released modules are pruned as the table grows.
enum ModuleManagers {
    private struct Entry {
        weak var module: (any ModuleHost.ModuleProtocol)?
        weak var manager: ModuleManager?
    }

    /// The entries, guarded by a `pthread` mutex (which Thread Sanitizer sees; it does not see
    /// `Synchronization.Mutex`'s lock on Linux). Made once and kept for the process's life.
    private final class Table: @unchecked Sendable {
        private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
            let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
            return mutex
        }()
        private var entries: [ObjectIdentifier: Entry] = [:]
        /// The count at which released modules' entries are next pruned: twice the live entries after a prune.
        private var pruneAt = 64

        func record(_ module: any ModuleHost.ModuleProtocol, _ manager: ModuleManager) {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            entries[ObjectIdentifier(module)] = Entry(module: module, manager: manager)
            guard entries.count >= pruneAt else { return }
            entries = entries.filter { $0.value.module != nil }
            pruneAt = max(64, entries.count * 2)
        }

        func manager(of module: any ModuleHost.ModuleProtocol) -> ModuleManager? {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            guard let entry = entries[ObjectIdentifier(module)], entry.module === module else { return nil }
            return entry.manager
        }
    }

    private static let table = Table()

    /// Records that `manager` loaded `module`.
    static func record(_ module: any ModuleHost.ModuleProtocol, loadedBy manager: ModuleManager) {
        table.record(module, manager)
    }

    /// The manager that loaded `module`, while it lives; `nil` for one that no manager loaded.
    static func manager(of module: any ModuleHost.ModuleProtocol) -> ModuleManager? {
        table.manager(of: module)
    }
}
