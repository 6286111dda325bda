import Synchronization
import ModuleHost

/// Which manager loaded each seed module instance, for the seed's `moduleManager` property: SwiftyArchitecture kept
/// it as an associated object, which Swift on Linux does not have. Entries hold the module and its manager weakly,
/// so the table keeps neither alive; entries of released modules are pruned as the table grows.
enum ModuleManagers {
    private struct Entry {
        weak var module: (any ModuleHost.ModuleProtocol)?
        weak var manager: ModuleManager?
    }

    private struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// The count at which released modules' entries are next pruned: twice the live entries after a prune.
        var pruneAt = 64
    }

    private static let table = Mutex(Table())

    /// Records that `manager` loaded `module`.
    static func record(_ module: any ModuleHost.ModuleProtocol, loadedBy manager: ModuleManager) {
        table.withLock { table in
            table.entries[ObjectIdentifier(module)] = Entry(module: module, manager: manager)
            guard table.entries.count >= table.pruneAt else { return }
            table.entries = table.entries.filter { $0.value.module != nil }
            table.pruneAt = max(64, table.entries.count * 2)
        }
    }

    /// The manager that loaded `module`, while it lives; `nil` for one that no manager loaded.
    static func manager(of module: any ModuleHost.ModuleProtocol) -> ModuleManager? {
        table.withLock { table in
            guard let entry = table.entries[ObjectIdentifier(module)], entry.module === module else { return nil }
            return entry.manager
        }
    }
}
