/// Exactly what the initiator did: one record per operation, phase timings, critical path and totals.
///
/// The critical path, totals, `isSuccessful` and `isComplete` are derived from the records whenever they are
/// read, so they can never contradict them. They are encoded too (for readers of the JSON), but decoding
/// ignores them and derives them again.
public struct StartupReport: Sendable, Codable, Equatable {
    /// One record per operation, in execution-plan order.
    public let operations: [OperationRecord]
    /// One record per phase, in phase order.
    public let phases: [PhaseRecord]
    /// Whether startup was cancelled.
    public let wasCancelled: Bool

    /// Builds a report from records and phase timings.
    init(operations: [OperationRecord], phases: [PhaseRecord], wasCancelled: Bool = false) {
        self.operations = operations
        self.phases = phases
        self.wasCancelled = wasCancelled
    }

    /// The operations that determined when the blocking phases finished, earliest first.
    public var criticalPath: [String] { CriticalPath.compute(records: operations) }

    /// Counts per state and wall times.
    public var totals: Totals { Totals(records: operations, phases: phases) }

    /// Whether no required operation failed, timed out, was skipped or cancelled (pending ones don't count),
    /// and startup was not cancelled.
    public var isSuccessful: Bool {
        !wasCancelled && !operations.contains { $0.failurePolicy == .required && $0.state.isProblem }
    }

    /// Whether every operation has reached a final state.
    public var isComplete: Bool { operations.allSatisfy(\.state.isFinished) }

    /// The record for an operation, if the report has one.
    package func record(_ identifier: String) -> OperationRecord? {
        operations.first { $0.identifier == identifier }
    }

    /// The records in a given state.
    package func operations(in state: OperationRecord.State) -> [OperationRecord] {
        operations.filter { $0.state == state }
    }

    private enum CodingKeys: String, CodingKey {
        case operations, phases, wasCancelled, criticalPath, totals, isSuccessful, isComplete
    }

    /// Decodes a report from its records, phases and `wasCancelled`; the derived fields are derived again.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the data is not a report as ``encode(to:)`` writes one.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        operations = try c.decode([OperationRecord].self, forKey: .operations)
        phases = try c.decode([PhaseRecord].self, forKey: .phases)
        wasCancelled = try c.decode(Bool.self, forKey: .wasCancelled)
    }

    /// Encodes the records, phases and `wasCancelled`, and the values derived from them.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(operations, forKey: .operations)
        try c.encode(phases, forKey: .phases)
        try c.encode(wasCancelled, forKey: .wasCancelled)
        try c.encode(criticalPath, forKey: .criticalPath)
        try c.encode(totals, forKey: .totals)
        try c.encode(isSuccessful, forKey: .isSuccessful)
        try c.encode(isComplete, forKey: .isComplete)
    }
}
