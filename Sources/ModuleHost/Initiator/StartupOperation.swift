/// One unit of startup work: an identified body with a phase, dependencies and limits.
///
/// The one type the initiator plans and runs. Operations come in through ModuleHostSeed's `ModuleInitiatorProtocol` and
/// ``ModuleStartupOperation`` contributions (turned into this type by ``ModuleManager/startupOperations()``) and through
/// ``Initiator/add(_:module:priority:dependencies:failurePolicy:timeout:operation:)``.
struct StartupOperation: Sendable {
    /// The operation's unique identifier within the startup plan.
    var identifier: String
    /// The module that declared the operation, if any (used in diagnostics and reports).
    var module: ModuleIdentifier?
    /// The phase the operation runs in.
    var priority: ModuleStartupOperation.Priority
    /// Identifiers of operations that must succeed before this one starts (same or earlier phase).
    var dependencies: [String]
    /// The failure policy chosen for the operation; `nil` means the phase's default.
    var failurePolicy: ModuleStartupOperation.FailurePolicy?
    /// How long the operation may run before it is marked timed out; `nil` means no limit.
    var timeout: Duration?
    /// The work itself.
    var work: Work

    /// Creates an operation that runs `body`.
    init(
        _ identifier: String,
        module: ModuleIdentifier? = nil,
        priority: ModuleStartupOperation.Priority,
        dependencies: [String] = [],
        failurePolicy: ModuleStartupOperation.FailurePolicy? = nil,
        timeout: Duration? = nil,
        body: @escaping StartupOperationBody
    ) {
        self.init(identifier, module: module, priority: priority, dependencies: dependencies, failurePolicy: failurePolicy,
                  timeout: timeout, work: .body(body))
    }

    /// Creates an operation that runs `work`.
    init(_ identifier: String, module: ModuleIdentifier?, priority: ModuleStartupOperation.Priority, dependencies: [String],
         failurePolicy: ModuleStartupOperation.FailurePolicy?, timeout: Duration?, work: Work) {
        self.identifier = identifier
        self.module = module
        self.priority = priority
        self.dependencies = dependencies
        self.failurePolicy = failurePolicy
        self.timeout = timeout
        self.work = work
    }

    /// The failure policy in force: the chosen one, or the phase's default.
    var effectiveFailurePolicy: ModuleStartupOperation.FailurePolicy {
        failurePolicy ?? priority.defaultFailurePolicy
    }
}

extension StartupOperation {
    /// What an operation runs: a body, or a module's declared body, handed the manager that declared it.
    ///
    /// A declared body is kept with the manager's reference, shared by all of them, not wrapped in a closure of its
    /// own: one allocation and one weak reference per operation fewer.
    enum Work: Sendable {
        /// A body given to the initiator.
        case body(StartupOperationBody)
        /// A module's declared body and the manager that declared it.
        case declared(DeclaredBody, manager: WeakManagerReference)

        /// A module's declared body (``ModuleStartupOperation``'s).
        typealias DeclaredBody = nonisolated(nonsending) @Sendable (any ModuleContext) async throws -> Void

        /// Runs the work on the caller's executor, as ``StartupOperationBody`` does. A declared body is handed the
        /// manager, held for as long as the body runs; once the manager is gone it throws `managerUnavailable`.
        nonisolated(nonsending) func run() async throws {
            switch self {
            case .body(let body):
                try await body()
            case .declared(let body, let reference):
                // The operation's record names it: the message need not, and the work need not hold its identifier.
                guard let manager = reference.manager else {
                    throw ResolutionError(.managerUnavailable, "the ModuleManager that declared this operation no longer exists")
                }
                try await body(manager)
            }
        }
    }
}

/// The manager (the context) that declared startup operations, held weakly: operations kept after the manager is gone
/// do not keep it alive.
final class WeakManagerReference: Sendable {
    weak let manager: (any ModuleContext)?

    init(_ manager: any ModuleContext) {
        self.manager = manager
    }
}
