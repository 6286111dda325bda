extension ModuleInitiatorProtocol where Self: ModuleProtocol {
    /// The seed's operation, for the host, which the host adds to the module's contributions (to
    /// ``ModuleStartupOperation/point``, ahead of the module's own ``ModuleProtocol/contributions``). Both the body
    /// and its wrapper are nonisolated(nonsending), so the seed's body runs on the executor the initiator calls it
    /// from (the main actor in `.high`), with no hop in between.
    public static var _initiatorOperation: ModuleStartupOperation? {
        let body: StartupOperationBody = operation
        return ModuleStartupOperation(identifier, priority: priority, dependencies: dependencies,
                                      failurePolicy: failurePolicy, timeout: timeout, body: { _ in try await body() })
    }
}

extension Contribution {
    /// What `type` contributes: the seed protocol's operation first, if it adopts ``ModuleInitiatorProtocol``, then
    /// its ``ModuleProtocol/contributions``. Read once per registration; asks the runtime nothing.
    static func declared(by type: any ModuleProtocol.Type) -> [Contribution] {
        guard let seed = type._initiatorOperation else { return type.contributions }
        return [.startupOperation(seed)] + type.contributions
    }
}
