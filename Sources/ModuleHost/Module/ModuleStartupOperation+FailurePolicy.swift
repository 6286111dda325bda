extension ModuleStartupOperation {
    /// What an operation's failure means for startup as a whole (`ModuleStartupOperation.FailurePolicy`).
    public enum FailurePolicy: String, Sendable, Codable {
        /// A failure (or timeout, or skip caused by a failure) in a blocking phase stops startup.
        case required
        /// A failure only skips the operation's dependents; startup goes on.
        case optional
    }
}
