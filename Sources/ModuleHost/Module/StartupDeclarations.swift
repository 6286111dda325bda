/// Reads the startup operations a module type declares, through either protocol, without instantiating it.
enum StartupDeclarations {
    /// The operations `type` declares: the seed protocol's one first, then the provider's, in declaration order.
    static func operations(of type: any ModuleProtocol.Type) -> [ModuleStartupOperation] {
        var operations: [ModuleStartupOperation] = []
        if let seed = type as? any ModuleInitiatorProtocol.Type {
            // Both the body and its wrapper are nonisolated(nonsending), so the seed's body runs on the
            // executor the initiator calls it from (the main actor in `.high`), with no hop in between.
            let body: StartupOperationBody = seed.operation
            operations.append(ModuleStartupOperation(
                seed.identifier, priority: seed.priority, dependencies: seed.dependencies,
                failurePolicy: seed.failurePolicy, timeout: seed.timeout, body: { _ in try await body() }))
        }
        if let provider = type as? any StartupOperationsProviding.Type {
            operations.append(contentsOf: provider.startupOperations)
        }
        return operations
    }
}
