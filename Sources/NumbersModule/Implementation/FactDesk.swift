import NumbersInterface
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
import ModuleHostState

/// The NumberFactService implementation: the engine plus the per-user history.
final class FactDesk: NumberFactService {
    private struct State {
        var engine = NumberFactEngine(primeTable: PrimeTable())
        var historyLimit = 100
        var store: FactHistoryStore?
        var contents = FactHistoryStore.Contents()
        var currentUser: String?
        /// Whether `contents` holds what the file held.
        var loaded = false
        /// Whether the file may be written (`false` when an unusable file could not be moved aside).
        var writable = true
        var report: @Sendable (String) -> Void = { _ in }
    }

    private let state = Locked(State())

    /// Applies the module's configuration; called from the module's `init(context:)`.
    /// `hostDirectory`: the host's state folder when `stateDirectory` is the module's folder inside it; `owner`: the
    /// module instance's context, after whose release the history file refuses.
    func configure(_ configuration: NumbersConfiguration, stateDirectory: URL, hostDirectory: URL? = nil,
                   owner: (any ModuleContext)? = nil, notice: @escaping @Sendable (String) -> Void = { _ in },
                   report: @escaping @Sendable (String) -> Void) {
        let store = FactHistoryStore(directory: stateDirectory, hostDirectory: hostDirectory, owner: owner, notice: notice)
        configure(configuration, store: store, report: report)
    }

    /// Applies the configuration with a given store (tests pass one with a smaller bound or a failing move).
    func configure(_ configuration: NumbersConfiguration, store: FactHistoryStore, report: @escaping @Sendable (String) -> Void) {
        state.withLock {
            $0.report = report
            $0.engine = NumberFactEngine(primeTable: PrimeTable(bound: configuration.primeTableBound))
            $0.historyLimit = configuration.historyLimit
            $0.store = store
        }
    }

    /// Builds the prime table; the `.asyncHigh` startup operation calls it off the main actor.
    func warmUp() {
        let table = state.withLock { $0.engine.primeTable }
        table.warm()
    }

    /// Loads the persisted histories once; an unusable file is moved aside (or, failing that, left alone and
    /// never written), reported, and an empty history used. Every use of the history loads it first, so a fact
    /// looked up before the startup operation ran never overwrites the file.
    func loadHistory() {
        let (store, report, loaded) = state.withLock { ($0.store, $0.report, $0.loaded) }
        guard let store, !loaded else { return }
        let result = store.load()
        let first = state.withLock { state -> Bool in
            guard !state.loaded else { return false }
            state.contents = result.contents
            state.writable = result.writable
            state.loaded = true
            return true
        }
        if first, let warning = result.warning { report(warning) }
    }

    func setCurrentUser(_ user: String?) {
        state.withLock { $0.currentUser = user }
    }

    var currentUser: String? { state.withLock { $0.currentUser } }

    func fact(about number: Int64) -> NumberFact {
        let engine = state.withLock { $0.engine }
        return record(engine.fact(about: number))
    }

    func facts(about number: Int64) -> [NumberFact] {
        state.withLock { $0.engine }.facts(about: number)
    }

    func randomFact() -> NumberFact {
        let engine = state.withLock { $0.engine }
        return record(engine.randomFact())
    }

    func history() -> [NumberFactHistoryEntry] {
        loadHistory()
        return state.withLock { $0.contents.users[$0.currentUser ?? ""] ?? [] }
    }

    /// Adds `fact` to the current user's history and saves it: under the history's lock, onto what the file holds
    /// now (another process sharing the state folder may have added entries since it was loaded).
    private func record(_ fact: NumberFact) -> NumberFact {
        loadHistory()
        let entry = NumberFactHistoryEntry(fact: fact, lookedUpAt: Date())
        let (store, key, limit, report) = state.withLock { state in
            (state.writable ? state.store : nil, state.currentUser ?? "", state.historyLimit, state.report)
        }
        let append = { (contents: inout FactHistoryStore.Contents) in
            var entries = contents.users[key] ?? []
            entries.append(entry)
            if entries.count > limit { entries.removeFirst(entries.count - limit) }
            contents.users[key] = entries
        }
        guard let store else {
            state.withLock { append(&$0.contents) }
            return fact
        }
        do {
            let waiting = { (lock: String) in report("waiting for \(lock), which another process holds, to save the lookup (at most \(FactHistoryStore.lockWait.components.seconds) s)") }
            guard let written = try store.update(keeping: key, waiting: waiting, append) else {
                state.withLock { append(&$0.contents) }
                return fact
            }
            state.withLock { $0.contents = written.contents }
            if let warning = written.warning { report(warning) }
            if written.dropped > 0 {
                report("the history file \(store.file.url.path) reached its limit of \(store.maximumFileSize) bytes: its \(written.dropped) oldest entries (other users' first) were dropped")
            }
        } catch {
            state.withLock { append(&$0.contents) }
            report("history not saved: \(error.message)")
        }
        return fact
    }
}
