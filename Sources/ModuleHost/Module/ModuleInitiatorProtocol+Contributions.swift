extension ModuleInitiatorProtocol where Self: ModuleProtocol {
    /// The seed's operation, as a contribution to ``ModuleStartupOperation/point``. Both the body and its wrapper
    /// are nonisolated(nonsending), so the seed's body runs on the executor the initiator calls it from (the main
    /// actor in `.high`), with no hop in between.
    ///
    /// It is the module's ``ModuleProtocol/contributions`` unless the module declares its own; a module that does
    /// lists this one among them (`validate` reports a module that leaves it out).
    public static var initiatorOperation: Contribution {
        let body: StartupOperationBody = operation
        return .startupOperation(ModuleStartupOperation(
            identifier, priority: priority, dependencies: dependencies, failurePolicy: failurePolicy,
            timeout: timeout, body: { _ in try await body() }))
    }

    /// The seed's operation, and nothing else.
    public static var contributions: [Contribution] { [initiatorOperation] }
}
