extension StartupOperationsProviding {
    /// ``startupOperations``, for the host.
    public static var _declaredStartupOperations: [ModuleStartupOperation] { startupOperations }
}

extension ModuleInitiatorProtocol where Self: ModuleProtocol {
    /// The seed's operation, for the host. Both the body and its wrapper are nonisolated(nonsending), so the seed's
    /// body runs on the executor the initiator calls it from (the main actor in `.high`), with no hop in between.
    public static var _declaredSeedOperation: ModuleStartupOperation? {
        let body: StartupOperationBody = operation
        return ModuleStartupOperation(identifier, priority: priority, dependencies: dependencies,
                                      failurePolicy: failurePolicy, timeout: timeout, body: { _ in try await body() })
    }
}

/// Reads the startup operations a module type declares, through either protocol, without instantiating it.
enum StartupDeclarations {
    /// The operations `type` declares: the seed protocol's one first, then the provider's, in declaration order.
    static func operations(of type: any ModuleProtocol.Type) -> [ModuleStartupOperation] {
        guard let seed = type._declaredSeedOperation else { return type._declaredStartupOperations }
        return [seed] + type._declaredStartupOperations
    }
}
