extension ModuleStartupOperation {
    /// When a startup operation runs (the seed's `Initiator.Priority`, in ModuleHostSeed); the cases are listed in phase order.
    ///
    /// `.high` and `.asyncHigh` are the *blocking* phases: `start()` returns once both have finished.
    /// The others run after the host signals `hostDidBecomeReady()` / `hostDidBecomeIdle()`.
    public enum Priority: String, Sendable, Codable, CaseIterable, Comparable {
        /// Serial, on the main actor, before the host starts; blocks startup. Every body is called from the
        /// main actor and starts there, a plain (not `@MainActor`) closure included; what it awaits from a
        /// `@concurrent` async function runs elsewhere (see ``StartupOperationBody``, also for the exceptions).
        case high
        /// Concurrent, off the main actor, before the host starts; blocks startup.
        case asyncHigh
        /// Concurrent, off the main actor, just after the host became ready (the "first frame").
        case afterFirstFrame
        /// Concurrent, off the main actor, at background task priority, after `afterFirstFrame`.
        case low
        /// Concurrent, off the main actor, once the host reports it is idle.
        case idle

        /// The phase's position in the phase order, starting at 0 for `.high`.
        var rank: Int {
            switch self {
            case .high: 0
            case .asyncHigh: 1
            case .afterFirstFrame: 2
            case .low: 3
            case .idle: 4
            }
        }

        /// Whether `start()` waits for this phase (`.high` and `.asyncHigh`).
        package var isBlocking: Bool { self == .high || self == .asyncHigh }

        /// Whether the phase runs its operations one at a time (only `.high`).
        var isSerial: Bool { self == .high }

        /// The failure policy used when an operation does not choose one.
        var defaultFailurePolicy: FailurePolicy { isBlocking ? .required : .optional }

        /// Orders phases by when they run.
        ///
        /// - Parameters:
        ///   - lhs: A phase.
        ///   - rhs: Another phase.
        /// - Returns: Whether `lhs` runs before `rhs`.
        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }
    }
}
