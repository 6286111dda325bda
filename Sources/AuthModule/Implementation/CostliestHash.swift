import AuthInterface
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
import ModuleHostState

/// Of the configured hashes, one of the setting (method and cost) that takes longest to check.
///
/// Hashes are grouped by setting (the hash without salt and checksum); with one setting that is the answer. With
/// several, each setting is timed once (the best of two checks of a wrong password) at the first log-in, which
/// costs the same whatever name is given; methods cannot be compared by their parameters alone.
final class CostliestHash: Sendable {
    private let representatives: [String]
    private let chosen = Locked<String?>(nil)

    init(candidates: [String]) {
        var seen = Set<String>()
        representatives = candidates.filter { seen.insert(Self.setting(of: $0)).inserted }
        if representatives.count == 1 { chosen.withLock { $0 = representatives.first } }
    }

    /// The hash to check unknown names against.
    var hash: String {
        if let known = chosen.withLock({ $0 }) { return known }
        let clock = ContinuousClock()
        var slowest: (hash: String, time: Duration)?
        for candidate in representatives {
            let time = (0..<2).map { _ in clock.measure { _ = PasswordHasher.verify("\u{1}timing", against: candidate) } }.min() ?? .zero
            if slowest.map({ time > $0.time }) ?? true { slowest = (candidate, time) }
        }
        let hash = slowest?.hash ?? ""
        return chosen.withLock { current in
            if let current { return current }
            current = hash
            return hash
        }
    }

    /// The method and cost of `hash`: everything but the salt and the checksum (for bcrypt, which joins them,
    /// everything but that last field).
    static func setting(of hash: String) -> String {
        let fields = hash.split(separator: "$", omittingEmptySubsequences: false)
        let kept = hash.hasPrefix("$2") ? fields.dropLast(1) : fields.dropLast(2)
        return kept.joined(separator: "$")
    }
}
