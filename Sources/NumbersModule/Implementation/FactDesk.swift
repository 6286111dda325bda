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

    /// Applies the module's configuration; called from `moduleDidLoad`.
    /// `hostDirectory`: the host's state folder when `stateDirectory` is the module's folder inside it; `owner`: the
    /// module instance's context, after whose release the history file refuses.
    func configure(_ configuration: NumbersConfiguration, stateDirectory: URL, hostDirectory: URL? = nil,
                   owner: (any ModuleContext)? = nil, report: @escaping @Sendable (String) -> Void) {
        let store = FactHistoryStore(directory: stateDirectory, hostDirectory: hostDirectory, owner: owner)
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

    private func record(_ fact: NumberFact) -> NumberFact {
        loadHistory()
        let (result, report) = state.withLock { state -> (Result<(data: Data, dropped: Int)?, StateFileError>, @Sendable (String) -> Void) in
            let key = state.currentUser ?? ""
            var entries = state.contents.users[key] ?? []
            entries.append(NumberFactHistoryEntry(fact: fact, lookedUpAt: Date()))
            if entries.count > state.historyLimit { entries.removeFirst(entries.count - state.historyLimit) }
            state.contents.users[key] = entries
            guard let store = state.store, state.writable else { return (.success(nil), state.report) }
            do throws(StateFileError) {
                let fitted = try store.encodeFitting(state.contents, keeping: key)
                state.contents = fitted.contents
                return (.success((fitted.data, fitted.dropped)), state.report)
            } catch {
                return (.failure(error), state.report)
            }
        }
        do {
            guard let (data, dropped) = try result.get(), let store = state.withLock({ $0.store }) else { return fact }
            try store.write(data)
            if dropped > 0 {
                report("the history file \(store.file.url.path) reached its limit of \(store.maximumFileSize) bytes: its \(dropped) oldest entries (other users' first) were dropped")
            }
        } catch {
            report("history not saved: \(error.message)")
        }
        return fact
    }
}
