import NumbersInterface
import Foundation
import ModuleHost

/// The NumberFactService implementation: the engine plus the per-user history.
final class FactDesk: NumberFactService {
    private struct State {
        var engine = NumberFactEngine(primeTable: PrimeTable())
        var historyLimit = 100
        var store: FactHistoryStore?
        var contents = FactHistoryStore.Contents()
        var currentUser: String?
        var report: @Sendable (String) -> Void = { _ in }
    }

    private let state = Locked(State())

    /// Applies the module's configuration; called from `moduleDidLoad`.
    func configure(_ configuration: NumbersConfiguration, stateDirectory: URL, report: @escaping @Sendable (String) -> Void) {
        state.withLock {
            $0.report = report
            $0.engine = NumberFactEngine(primeTable: PrimeTable(bound: configuration.primeTableBound))
            $0.historyLimit = configuration.historyLimit
            $0.store = FactHistoryStore(directory: stateDirectory)
        }
    }

    /// Builds the prime table; the `.asyncHigh` startup operation calls it off the main actor.
    func warmUp() {
        let table = state.withLock { $0.engine.primeTable }
        table.warm()
    }

    /// Loads the persisted histories; an unusable file is reported and an empty history used. Entries looked
    /// up before it finished are kept (the file's entries come first).
    func loadHistory() {
        let (store, report) = state.withLock { ($0.store, $0.report) }
        guard let store else { return }
        let (contents, warning) = store.load()
        state.withLock { state in
            var merged = contents
            for (user, entries) in state.contents.users {
                let all = (merged.users[user] ?? []) + entries
                merged.users[user] = Array(all.suffix(state.historyLimit))
            }
            state.contents = merged
        }
        if let warning { report(warning) }
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
        state.withLock { $0.contents.users[$0.currentUser ?? ""] ?? [] }
    }

    private func record(_ fact: NumberFact) -> NumberFact {
        let (store, snapshot, report) = state.withLock { state -> (FactHistoryStore?, FactHistoryStore.Contents, @Sendable (String) -> Void) in
            let key = state.currentUser ?? ""
            var entries = state.contents.users[key] ?? []
            entries.append(NumberFactHistoryEntry(fact: fact, lookedUpAt: Date()))
            if entries.count > state.historyLimit { entries.removeFirst(entries.count - state.historyLimit) }
            state.contents.users[key] = entries
            return (state.store, state.contents, state.report)
        }
        do {
            try store?.save(snapshot)
        } catch {
            report("history not saved: \(error.message)")
        }
        return fact
    }
}
