/// Counts of operations per state, plus overall wall times; a report derives them from its records.
public struct StartupTotals: Sendable, Encodable, Equatable {
    /// Operation count per state (every state present, zero when none).
    public let counts: [String: Int]
    /// From the initiator's start to the end of the last finished blocking phase.
    public let blockingWallTime: Duration?
    /// From the initiator's start to the last moment any phase finished.
    public let wallTime: Duration?

    /// Computes totals from records and phases.
    init(records: [OperationRecord], phases: [PhaseRecord]) {
        var counts: [String: Int] = [:]
        for state in OperationRecord.State.allCases { counts[state.rawValue] = 0 }
        for record in records { counts[record.state.rawValue, default: 0] += 1 }
        self.counts = counts
        blockingWallTime = phases.filter(\.phase.isBlocking).compactMap(\.finishedAt).max()
        wallTime = phases.compactMap(\.finishedAt).max()
    }

    /// The number of operations in `state`.
    public func count(_ state: OperationRecord.State) -> Int { counts[state.rawValue] ?? 0 }

    private enum CodingKeys: String, CodingKey { case counts, blockingWallTimeMs, wallTimeMs }

    /// Encodes totals with times in milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(counts, forKey: .counts)
        try c.encodeMilliseconds(blockingWallTime, forKey: .blockingWallTimeMs)
        try c.encodeMilliseconds(wallTime, forKey: .wallTimeMs)
    }
}
