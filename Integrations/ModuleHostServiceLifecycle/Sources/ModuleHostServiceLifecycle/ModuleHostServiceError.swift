import ModuleHost

/// Why a ``ModuleHostService`` stopped with an error; it names the module (and operation) at fault.
public struct ModuleHostServiceError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable {
        /// An eager module threw from `moduleDidLoad` (or a module it requires failed).
        case moduleFailedToLoad
        /// A required startup operation in a blocking phase failed, timed out or was skipped.
        case startupOperationFailed
        /// The startup plan could not run at all (an invalid plan, an operation source that threw).
        case startupNotPossible
        /// The service was shut down or cancelled before startup finished, or the task waiting for it was
        /// cancelled (from ``ModuleHostService/waitUntilRunning()`` only; `run()` does not throw it).
        case notRunning
    }

    /// The kind of failure.
    public let code: Code
    /// The module at fault, when one is known.
    public let module: ModuleIdentifier?
    /// The startup operation at fault, for ``Code/startupOperationFailed``.
    public let operation: String?
    /// What went wrong, for people.
    public let message: String
    /// The startup report, when startup ran.
    public let report: StartupReport?

    /// Creates an error.
    public init(_ code: Code, module: ModuleIdentifier?, operation: String? = nil, message: String, report: StartupReport? = nil) {
        self.code = code
        self.module = module
        self.operation = operation
        self.message = message
        self.report = report
    }

    /// The message.
    public var description: String { message }
}

extension ModuleHostServiceError {
    /// The error for an eager module that failed to load.
    static func moduleFailedToLoad(_ module: ModuleIdentifier, _ failure: String) -> Self {
        Self(.moduleFailedToLoad, module: module, message: "module \(module) failed to load: \(failure)")
    }

    /// The error for a service shut down before its startup finished.
    static let shutDownBeforeRunning = Self(.notRunning, module: nil, message: "the modules were shut down before their startup finished")

    /// The error for a wait for the service that was cancelled.
    static let waitCancelled = Self(.notRunning, module: nil, message: "stopped waiting for the modules to start: the waiting task was cancelled")

    /// The error for a start of the initiator that threw `error` (not a cancellation).
    static func startupFailed(_ error: any Error) -> Self {
        guard let error = error as? InitiatorError, let report = error.report,
              let culprit = report.operations.first(where: { $0.state == .failed || $0.state == .timedOut })
                ?? report.operations.first(where: { $0.state.isProblem }) else {
            return Self(.startupNotPossible, module: nil, message: "startup could not run: \(error)")
        }
        let owner = culprit.module.map { "module \($0)" } ?? "the host"
        return Self(.startupOperationFailed, module: culprit.module, operation: culprit.identifier,
                    message: "startup failed in \(owner): \(culprit)", report: report)
    }
}
