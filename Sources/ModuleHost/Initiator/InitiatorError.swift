/// An error from the initiator's lifecycle (as opposed to an invalid plan, which is a `StartupPlanError`).
public struct InitiatorError: Error, Sendable, CustomStringConvertible {
    /// The kind of error.
    public enum Code: String, Sendable, Codable {
        /// `start()` was called a second time.
        case alreadyStarted
        /// An operation was added after `start()`.
        case addedAfterStart
        /// The modules' operation source threw while startup was being planned.
        case operationSourceFailed
        /// A required operation in a blocking phase failed, timed out or was skipped; later phases did not run.
        case requiredOperationFailed
        /// The task running startup was cancelled.
        case cancelled
    }

    /// The kind of error.
    public let code: Code
    /// A human-readable explanation.
    public let message: String
    /// What had happened by the time of the error, when startup had begun.
    public let report: StartupReport?

    /// Creates an error.
    init(code: Code, message: String, report: StartupReport? = nil) {
        self.code = code
        self.message = message
        self.report = report
    }

    /// The human-readable message.
    public var description: String { message }
}
