extension StartupReport {
    /// Counts of operations per state, plus overall wall times; a report derives them from its records.
    public struct Totals: Sendable, Encodable, Equatable, CustomStringConvertible {
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

        /// Every state's count in the states' order, then the wall times: `3 succeeded, 0 failed, …; blocking 1.2 ms,
        /// all 4.5 ms`.
        public var description: String {
            let counts = OperationRecord.State.allCases.map { "\(count($0)) \($0.rawValue)" }.joined(separator: ", ")
            let blocking = StartupReport.formatMilliseconds(blockingWallTime)
            return "\(counts); blocking \(blocking) ms, all \(StartupReport.formatMilliseconds(wallTime)) ms"
        }

        /// The number of operations in `state`.
        package func count(_ state: OperationRecord.State) -> Int { counts[state.rawValue] ?? 0 }

        private enum CodingKeys: String, CodingKey { case counts, blockingWallTimeMs, wallTimeMs }

        /// Encodes totals with times in milliseconds.
        ///
        /// - Parameter encoder: The encoder to write to.
        /// - Throws: What the encoder throws.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(counts, forKey: .counts)
            try c.encodeMilliseconds(blockingWallTime, forKey: .blockingWallTimeMs)
            try c.encodeMilliseconds(wallTime, forKey: .wallTimeMs)
        }
    }
}
