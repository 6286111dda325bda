extension StartupReport {
    /// When one phase ran. Times are offsets from the initiator's start.
    public struct PhaseRecord: Sendable, Codable, Equatable {
        /// The phase.
        public internal(set) var phase: ModuleStartupOperation.Priority
        /// When the phase began, if it has.
        public internal(set) var startedAt: Duration?
        /// When its last operation settled, if it has.
        public internal(set) var finishedAt: Duration?

        /// Creates a phase record.
        init(phase: ModuleStartupOperation.Priority, startedAt: Duration? = nil, finishedAt: Duration? = nil) {
            self.phase = phase
            self.startedAt = startedAt
            self.finishedAt = finishedAt
        }

        /// The phase's wall time, once it has finished.
        public var wallTime: Duration? {
            guard let startedAt, let finishedAt else { return nil }
            return finishedAt - startedAt
        }

        private enum CodingKeys: String, CodingKey { case phase, startedAtMs, finishedAtMs, wallTimeMs }

        /// Decodes a phase record; times are read from millisecond fields.
        ///
        /// - Parameter decoder: The decoder to read from.
        /// - Throws: `DecodingError` when the data is not a phase record as ``encode(to:)`` writes one.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            phase = try c.decode(ModuleStartupOperation.Priority.self, forKey: .phase)
            startedAt = try c.decodeMilliseconds(forKey: .startedAtMs)
            finishedAt = try c.decodeMilliseconds(forKey: .finishedAtMs)
        }

        /// Encodes a phase record with times in milliseconds.
        ///
        /// - Parameter encoder: The encoder to write to.
        /// - Throws: What the encoder throws.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(phase, forKey: .phase)
            try c.encodeMilliseconds(startedAt, forKey: .startedAtMs)
            try c.encodeMilliseconds(finishedAt, forKey: .finishedAtMs)
            try c.encodeMilliseconds(wallTime, forKey: .wallTimeMs)
        }
    }
}
