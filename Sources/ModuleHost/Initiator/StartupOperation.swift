/// One unit of startup work: an identified body with a phase, dependencies and limits.
public struct StartupOperation: Sendable {
    /// The operation's unique identifier within the startup plan.
    public var identifier: String
    /// The module that declared the operation, if any (used in diagnostics and reports).
    public var module: ModuleIdentifier?
    /// The phase the operation runs in.
    public var priority: Initiator.Priority
    /// Identifiers of operations that must succeed before this one starts (same or earlier phase).
    public var dependencies: [String]
    /// The failure policy chosen for the operation; `nil` means the phase's default.
    public var failurePolicy: Initiator.FailurePolicy?
    /// How long the operation may run before it is marked timed out; `nil` means no limit.
    public var timeout: Duration?
    /// The work itself.
    public var body: Initiator.Operation

    /// Creates an operation.
    public init(
        _ identifier: String,
        module: ModuleIdentifier? = nil,
        priority: Initiator.Priority,
        dependencies: [String] = [],
        failurePolicy: Initiator.FailurePolicy? = nil,
        timeout: Duration? = nil,
        body: @escaping Initiator.Operation
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
    public var effectiveFailurePolicy: Initiator.FailurePolicy {
        failurePolicy ?? priority.defaultFailurePolicy
    }
}
