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
    var body: StartupOperationBody

    /// Creates an operation.
    init(
        _ identifier: String,
        module: ModuleIdentifier? = nil,
        priority: ModuleStartupOperation.Priority,
        dependencies: [String] = [],
        failurePolicy: ModuleStartupOperation.FailurePolicy? = nil,
        timeout: Duration? = nil,
        body: @escaping StartupOperationBody
    ) {
        self.identifier = identifier
        self.module = module
        self.priority = priority
        self.dependencies = dependencies
        self.failurePolicy = failurePolicy
        self.timeout = timeout
        self.body = body
    }

    /// The failure policy in force: the chosen one, or the phase's default.
    var effectiveFailurePolicy: ModuleStartupOperation.FailurePolicy {
        failurePolicy ?? priority.defaultFailurePolicy
    }
}
