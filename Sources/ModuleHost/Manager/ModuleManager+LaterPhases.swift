extension ModuleManager {
    /// When ``run(teardownTimeLimit:laterPhases:onTeardown:_:)`` lets the later startup phases (`.afterFirstFrame`,
    /// `.low`, `.idle`) run, and how long it waits for them.
    public enum LaterPhases: Sendable, Hashable {
        /// Never released: a host that does one thing and ends (a one-shot command) has no use for idle work.
        /// The operations are cancelled at the end.
        case never
        /// Released when the host's work starts, and run beside it. When the work returns, they get up to
        /// `gracePeriod` more to finish, then what is left is cancelled; a cancelled run gives them none.
        case whileWorking(gracePeriod: Duration)
        /// Released at once and waited for before the host's work starts, which gets the report of every phase
        /// (a host that reports on the whole startup).
        case beforeWork
    }
}
