/// Why startup ended before running every phase: the one place a stop is turned into text.
enum StartupStopReason: Sendable, Equatable {
    /// The host cancelled startup (`cancel()`, or cancellation of the task running `start()` or `drain()`).
    case cancelled
    /// A required operation in a blocking phase did not succeed; later phases do not run.
    case requiredOperationDidNotSucceed(Culprit)
    /// The modules' operation source threw (its description); nothing ran.
    case operationSourceFailed(String)
    /// The plan was invalid (the `InitiatorError` with code `invalidPlan` is thrown as is); nothing ran.
    case invalidPlan

    /// The required operation that stopped startup.
    struct Culprit: Sendable, Equatable {
        /// How the operation ended.
        enum Ending: Sendable, Equatable {
            case failed, timedOut, skipped
        }

        let identifier: String
        let module: ModuleIdentifier?
        let phase: ModuleStartupOperation.Priority
        let ending: Ending
        /// The record's error or skip reason, if any.
        let detail: String?

        /// The culprit of `record`, when it is a required operation that failed, timed out or was skipped.
        init?(_ record: StartupReport.OperationRecord) {
            guard record.failurePolicy == .required else { return nil }
            switch record.state {
            case .failed: ending = .failed
            case .timedOut: ending = .timedOut
            case .skipped: ending = .skipped
            case .pending, .running, .succeeded, .cancelled: return nil
            }
            identifier = record.identifier
            module = record.module
            phase = record.phase
            detail = record.message
        }

        /// The record state the culprit ended in.
        var state: StartupReport.OperationRecord.State {
            switch ending {
            case .failed: .failed
            case .timedOut: .timedOut
            case .skipped: .skipped
            }
        }
    }

    /// The message of the error `start()` throws for this stop.
    var errorMessage: String {
        switch self {
        case .cancelled: "startup was cancelled"
        case .requiredOperationDidNotSucceed(let culprit): "startup stopped: \(Self.describe(culprit))"
        case .operationSourceFailed(let error): "could not read the modules' startup operations: \(error)"
        case .invalidPlan: "the startup plan is invalid"
        }
    }

    /// Why an operation that this stop left unrun did not run, as its record's `reason`.
    var notRunReason: String {
        switch self {
        case .cancelled: "startup was cancelled"
        case .requiredOperationDidNotSucceed(let culprit): "not run: startup stopped because \(Self.describe(culprit))"
        case .operationSourceFailed: "not run: the modules' operations could not be read"
        case .invalidPlan: "not run: the startup plan is invalid"
        }
    }

    /// The state in which an operation this stop left unrun ends.
    var notRunState: StartupReport.OperationRecord.State {
        self == .cancelled ? .cancelled : .skipped
    }

    /// `required operation "id" (phase) failed: detail`.
    private static func describe(_ culprit: Culprit) -> String {
        var text = "required operation \"\(culprit.identifier)\" (\(culprit.phase.rawValue)) "
            + StartupReport.OperationRecord.verb(for: culprit.state)
        if let detail = culprit.detail { text += ": \(detail)" }
        return text
    }
}
