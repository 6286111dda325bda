extension Initiator {
    /// A progress event, for showing live startup progress.
    ///
    /// A later version may report more kinds of event, so a `switch` over one from outside this package needs an
    /// `@unknown default:`.
    @nonexhaustive
    public enum Event: Sendable {
        /// A phase began.
        case phaseStarted(ModuleStartupOperation.Priority)
        /// An operation started running.
        case operationStarted(identifier: String, phase: ModuleStartupOperation.Priority)
        /// An operation reached a final state (succeeded, failed, timed out, skipped or cancelled).
        case operationFinished(StartupReport.OperationRecord)
        /// A phase's operations have all settled.
        case phaseFinished(ModuleStartupOperation.Priority)
        /// Every phase has settled (or startup stopped); this is the last event.
        case finished(StartupReport)
    }
}
