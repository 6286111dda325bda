#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Facts about numbers, computed offline, with a per-user history of what was looked up.
public protocol NumberFactService: AnyObject, Sendable {
    /// The most interesting fact about `number` (deterministic), recorded in the current user's history.
    func fact(about number: Int64) -> NumberFact
    /// Every fact that holds for `number`, in a fixed order; not recorded.
    func facts(about number: Int64) -> [NumberFact]
    /// A fact about a random number, recorded in the current user's history.
    func randomFact() -> NumberFact
    /// The current user's history, oldest first (the anonymous history when nobody is logged in).
    func history() -> [NumberFactHistoryEntry]
    /// The user whose history is being kept, or `nil` for anonymous use.
    var currentUser: String? { get }
}

/// One looked-up fact and when it was looked up.
public struct NumberFactHistoryEntry: Sendable, Hashable, Codable {
    /// The fact.
    public let fact: NumberFact
    /// When it was looked up.
    public let lookedUpAt: Date

    /// Creates an entry.
    public init(fact: NumberFact, lookedUpAt: Date) {
        self.fact = fact
        self.lookedUpAt = lookedUpAt
    }
}
