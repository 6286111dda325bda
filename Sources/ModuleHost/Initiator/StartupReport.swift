/// Exactly what the initiator did: one record per operation, phase timings, critical path and totals.
public struct StartupReport: Sendable, Codable, Equatable {
    /// One record per operation, in execution-plan order.
    public var operations: [OperationRecord]
    /// One record per phase, in phase order.
    public var phases: [PhaseRecord]
    /// The operations that determined when the blocking phases finished, earliest first.
    public var criticalPath: [String]
    /// Counts per state and wall times.
    public var totals: StartupTotals
    /// Whether startup was cancelled.
    public var wasCancelled: Bool
    /// Whether no required operation failed, timed out, was skipped or cancelled (pending ones don't count).
    public var isSuccessful: Bool
    /// Whether every operation has reached a final state.
    public var isComplete: Bool

    /// Builds a report from records and phase timings, deriving the critical path and totals.
    public init(operations: [OperationRecord], phases: [PhaseRecord], wasCancelled: Bool = false) {
        self.operations = operations
        self.phases = phases
        self.criticalPath = CriticalPath.compute(records: operations)
        self.totals = StartupTotals(records: operations, phases: phases)
        self.wasCancelled = wasCancelled
        self.isSuccessful = !wasCancelled
            && !operations.contains { $0.failurePolicy == .required && $0.state.isProblem }
        self.isComplete = operations.allSatisfy(\.state.isFinished)
    }

    /// The record for an operation, if the report has one.
    public func record(_ identifier: String) -> OperationRecord? {
        operations.first { $0.identifier == identifier }
    }

    /// The records in a given state.
    public func operations(in state: OperationRecord.State) -> [OperationRecord] {
        operations.filter { $0.state == state }
    }
}
