/// Why startup could not run: an invalid plan (code `.invalidPlan`, with every ``problems`` found, not just
/// the first) or an error from the initiator's lifecycle.
public struct InitiatorError: Error, Sendable, CustomStringConvertible {
    /// The kind of error.
    ///
    /// A growable ``ErrorCode``: a `switch` over one needs a `default:`.
    public typealias Code = ErrorCode<InitiatorError>

    /// The kind of error.
    public let code: Code
    /// A human-readable explanation.
    public let message: String
    /// What had happened by the time of the error, when startup had begun.
    public let report: StartupReport?
    /// Every problem found in an invalid plan (code `.invalidPlan`), grouped by kind in a deterministic order;
    /// empty for the other codes.
    public let problems: [Problem]

    /// Creates an error.
    init(code: Code, message: String, report: StartupReport? = nil) {
        self.code = code
        self.message = message
        self.report = report
        self.problems = []
    }

    /// Creates the error for an invalid plan: code `.invalidPlan`, with a multi-line message: a heading,
    /// then one indented line per problem.
    init(problems: [Problem]) {
        let noun = problems.count == 1 ? "problem" : "problems"
        let lines = problems.map { "  - \($0.message)" }
        self.code = .invalidPlan
        self.message = (["invalid startup plan (\(problems.count) \(noun)):"] + lines).joined(separator: "\n")
        self.report = nil
        self.problems = problems
    }

    /// The problems' codes, in order.
    package var problemCodes: [Problem.Code] { problems.map(\.code) }

    /// The human-readable message.
    public var description: String { message }
}

extension ErrorCode where Domain == InitiatorError {
    /// `start()` was called a second time.
    public static var alreadyStarted: Self { Self(rawValue: "alreadyStarted") }

    /// An operation was added after `start()`.
    public static var addedAfterStart: Self { Self(rawValue: "addedAfterStart") }

    /// The modules' operation source threw while startup was being planned.
    public static var operationSourceFailed: Self { Self(rawValue: "operationSourceFailed") }

    /// A required operation in a blocking phase failed, timed out or was skipped; later phases did not run.
    public static var requiredOperationFailed: Self { Self(rawValue: "requiredOperationFailed") }

    /// The task running startup was cancelled.
    public static var cancelled: Self { Self(rawValue: "cancelled") }

    /// The startup plan is invalid (see ``InitiatorError/problems``); nothing ran.
    public static var invalidPlan: Self { Self(rawValue: "invalidPlan") }
}
