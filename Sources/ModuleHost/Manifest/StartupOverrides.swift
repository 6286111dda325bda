/// Manifest settings that change how a module's startup operations run, without changing its code.
///
/// Set on a module entry they apply to all of its operations; `operations` refines them per operation.
/// ```json
/// {"type": "NumbersModule.NumbersModule", "timeout": 5, "operations": {"numbers.history": {"priority": "low"}}}
/// ```
struct StartupOverrides: Sendable, Hashable {
    /// The phase to run the operations in instead of the one their code declares.
    var priority: ModuleStartupOperation.Priority?
    /// How long an operation may run before it is cancelled and marked timed out.
    var timeout: Duration?
    /// Whether a failure stops startup (`required`) or is only reported (`optional`).
    var failurePolicy: ModuleStartupOperation.FailurePolicy?
    /// Per-operation overrides, keyed by operation identifier; they win over the module-wide values.
    var operations: [String: StartupOverrides]

    /// Creates overrides; every field defaults to "no override".
    init(
        priority: ModuleStartupOperation.Priority? = nil, timeout: Duration? = nil, failurePolicy: ModuleStartupOperation.FailurePolicy? = nil,
        operations: [String: StartupOverrides] = [:]
    ) {
        self.priority = priority
        self.timeout = timeout
        self.failurePolicy = failurePolicy
        self.operations = operations
    }

    /// The overrides in force for one operation: its own entry, falling back to the module-wide values.
    func resolved(for operationIdentifier: String) -> StartupOverrides {
        guard !operations.isEmpty else { return self }
        let specific = operations[operationIdentifier]
        return StartupOverrides(
            priority: specific?.priority ?? priority,
            timeout: specific?.timeout ?? timeout,
            failurePolicy: specific?.failurePolicy ?? failurePolicy
        )
    }
}
