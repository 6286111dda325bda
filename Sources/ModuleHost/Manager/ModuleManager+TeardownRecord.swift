extension ModuleManager {
    /// What happened to one module's asynchronous teardown (``ModuleProtocol/moduleTearDown()``) when the manager
    /// unloaded it with ``ModuleManager/unloadAll(teardownTimeLimit:)``.
    public struct TeardownRecord: Sendable, Hashable, CustomStringConvertible {
        /// How a teardown ended.
        public enum Outcome: String, Sendable, Hashable {
            /// The teardown returned within its time limit.
            case finished
            /// The teardown was still running when its time limit passed: it was cancelled and no longer waited for.
            case timedOut
        }

        /// The module torn down.
        public let module: ModuleIdentifier
        /// How its teardown ended.
        public let outcome: Outcome
        /// How long the unloader waited for it (about the time limit for one that timed out).
        public let duration: Duration
        /// The time limit it was given.
        public let timeLimit: Duration

        /// Creates a record.
        init(module: ModuleIdentifier, outcome: Outcome, duration: Duration, timeLimit: Duration) {
            self.module = module
            self.outcome = outcome
            self.duration = duration
            self.timeLimit = timeLimit
        }

        /// `teardown of com.example.db finished in 12.5 ms`, or
        /// `teardown of com.example.db timed out: still running after its time limit of 5 s; no longer waited for`.
        public var description: String {
            switch outcome {
            case .finished:
                "teardown of \(module) finished in \(DisplayText.duration(duration))"
            case .timedOut:
                "teardown of \(module) timed out: still running after its time limit of \(DisplayText.duration(timeLimit)); no longer waited for"
            }
        }
    }
}
