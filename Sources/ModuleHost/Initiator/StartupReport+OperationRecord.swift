extension StartupReport {
    /// What happened to one startup operation. Times are offsets from the initiator's start.
    public struct OperationRecord: Sendable, Codable, Equatable {
        /// Where an operation is in its life.
        public enum State: String, Sendable, Codable, CaseIterable {
            /// Not started yet.
            case pending
            /// Running now.
            case running
            /// Finished without throwing.
            case succeeded
            /// Threw an error (see `error`).
            case failed
            /// Ran longer than its timeout; it was cancelled and no longer waited for.
            case timedOut
            /// Never started because a dependency did not succeed or startup stopped (see `reason`).
            case skipped
            /// Cancelled because startup was cancelled (see `reason`).
            case cancelled

            /// Whether the state is final.
            var isFinished: Bool { self != .pending && self != .running }

            /// Whether the state means something went wrong.
            public var isProblem: Bool { self == .failed || self == .timedOut || self == .skipped || self == .cancelled }
        }

        /// The operation's identifier.
        public internal(set) var identifier: String
        /// The module that declared the operation, if any.
        public internal(set) var module: ModuleIdentifier?
        /// The phase it belongs to.
        public internal(set) var phase: ModuleStartupOperation.Priority
        /// The identifiers it depends on.
        public internal(set) var dependencies: [String]
        /// The failure policy in force.
        public internal(set) var failurePolicy: ModuleStartupOperation.FailurePolicy
        /// Its current state.
        public internal(set) var state: State
        /// When it could have started: its phase had begun and all its dependencies had succeeded.
        public internal(set) var readyAt: Duration?
        /// When it actually started (later than `readyAt` when it waited for a free slot).
        public internal(set) var startedAt: Duration?
        /// When it finished, timed out or was cancelled.
        public internal(set) var finishedAt: Duration?
        /// The error's description, for failed and timed-out operations.
        public internal(set) var error: String?
        /// Why it was skipped or cancelled.
        public internal(set) var reason: String?

        /// Creates a record.
        init(
            identifier: String, module: ModuleIdentifier?, phase: ModuleStartupOperation.Priority, dependencies: [String],
            failurePolicy: ModuleStartupOperation.FailurePolicy, state: State = .pending, readyAt: Duration? = nil,
            startedAt: Duration? = nil, finishedAt: Duration? = nil, error: String? = nil, reason: String? = nil
        ) {
            self.identifier = identifier
            self.module = module
            self.phase = phase
            self.dependencies = dependencies
            self.failurePolicy = failurePolicy
            self.state = state
            self.readyAt = readyAt
            self.startedAt = startedAt
            self.finishedAt = finishedAt
            self.error = error
            self.reason = reason
        }

        /// The record of `operation` before it runs: pending, with the failure policy in force.
        init(pending operation: StartupOperation) {
            // Field by field rather than through the memberwise initializer, which built a record and copied it.
            identifier = operation.identifier
            module = operation.module
            phase = operation.priority
            dependencies = operation.dependencies
            failurePolicy = operation.effectiveFailurePolicy
            state = .pending
            readyAt = nil
            startedAt = nil
            finishedAt = nil
            error = nil
            reason = nil
        }

        /// The pending records of `operations`, taken in the order of `indices`.
        ///
        /// Written field by field into records made from one template: building each record as a value and storing
        /// it made the compiler copy it (retaining its references), store it with `memcpy` and destroy the original.
        static func pendingRecords(of operations: [StartupOperation], in indices: [Int]) -> [OperationRecord] {
            let template = OperationRecord(identifier: "", module: nil, phase: .high, dependencies: [],
                                           failurePolicy: .required)
            var records = [OperationRecord](repeating: template, count: indices.count)
            records.withUnsafeMutableBufferPointer { buffer in
                for position in buffer.indices {
                    let index = indices[position]
                    buffer[position].identifier = operations[index].identifier
                    buffer[position].module = operations[index].module
                    buffer[position].phase = operations[index].priority
                    buffer[position].dependencies = operations[index].dependencies
                    // `effectiveFailurePolicy`, spelled out: calling it copied the whole operation.
                    buffer[position].failurePolicy =
                        operations[index].failurePolicy ?? operations[index].priority.defaultFailurePolicy
                }
            }
            return records
        }

        /// How a state reads after an operation's name ("failed", "timed out", …), in skip and stop reasons.
        static func verb(for state: State) -> String {
            switch state {
            case .failed: "failed"
            case .timedOut: "timed out"
            case .skipped: "was skipped"
            case .cancelled: "was cancelled"
            case .succeeded: "succeeded"
            case .running: "is running"
            case .pending: "is pending"
            }
        }

        /// Time spent ready but waiting for a free slot (`startedAt - readyAt`).
        public var waited: Duration? {
            guard let readyAt, let startedAt else { return nil }
            return startedAt - readyAt
        }

        /// Time spent running (`finishedAt - startedAt`).
        public var ran: Duration? {
            guard let startedAt, let finishedAt else { return nil }
            return finishedAt - startedAt
        }

        /// The error or the skip/cancel reason, whichever is set.
        package var message: String? { error ?? reason }

        private enum CodingKeys: String, CodingKey {
            case identifier, module, phase, dependencies, failurePolicy, state, error, reason
            case readyAtMs, startedAtMs, finishedAtMs, waitedMs, ranMs
        }

        /// Decodes a record; times are read from millisecond fields.
        ///
        /// - Parameter decoder: The decoder to read from.
        /// - Throws: `DecodingError` when the data is not a record as ``encode(to:)`` writes one.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            identifier = try c.decode(String.self, forKey: .identifier)
            module = try c.decodeIfPresent(ModuleIdentifier.self, forKey: .module)
            phase = try c.decode(ModuleStartupOperation.Priority.self, forKey: .phase)
            dependencies = try c.decodeIfPresent([String].self, forKey: .dependencies) ?? []
            failurePolicy = try c.decode(ModuleStartupOperation.FailurePolicy.self, forKey: .failurePolicy)
            state = try c.decode(State.self, forKey: .state)
            readyAt = try c.decodeMilliseconds(forKey: .readyAtMs)
            startedAt = try c.decodeMilliseconds(forKey: .startedAtMs)
            finishedAt = try c.decodeMilliseconds(forKey: .finishedAtMs)
            error = try c.decodeIfPresent(String.self, forKey: .error)
            reason = try c.decodeIfPresent(String.self, forKey: .reason)
        }

        /// Encodes a record with times (and the derived waited/ran spans) in milliseconds.
        ///
        /// - Parameter encoder: The encoder to write to.
        /// - Throws: What the encoder throws.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(identifier, forKey: .identifier)
            try c.encodeIfPresent(module, forKey: .module)
            try c.encode(phase, forKey: .phase)
            try c.encode(dependencies, forKey: .dependencies)
            try c.encode(failurePolicy, forKey: .failurePolicy)
            try c.encode(state, forKey: .state)
            try c.encodeMilliseconds(readyAt, forKey: .readyAtMs)
            try c.encodeMilliseconds(startedAt, forKey: .startedAtMs)
            try c.encodeMilliseconds(finishedAt, forKey: .finishedAtMs)
            try c.encodeMilliseconds(waited, forKey: .waitedMs)
            try c.encodeMilliseconds(ran, forKey: .ranMs)
            try c.encodeIfPresent(error, forKey: .error)
            try c.encodeIfPresent(reason, forKey: .reason)
        }
    }
}
