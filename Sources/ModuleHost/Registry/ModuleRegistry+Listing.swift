extension ModuleRegistry {
    /// The loaded modules, in load order.
    func loadedModules() -> [any ModuleProtocol] {
        locked { graph.loadOrder.compactMap { graph.loadedModule(at: $0) } }
    }

    /// A description of every registered module, in registration order.
    func descriptions() -> [ModuleDescription] {
        locked {
            table.ordered.enumerated().map { position, registration in
                let (state, failure) = describeState(of: registration.identifier, at: position)
                return ModuleDescription(
                    identifier: registration.identifier, typeName: registration.typeName,
                    services: registration.providedServices.map(\.name), requiredModules: registration.requiredModules,
                    eager: registration.eager, origin: registration.origin, state: state, failure: failure)
            }
        }
    }

    /// The state of `identifier`, registered at `position`, as listings show it, with its failure. Must be called
    /// with `condition` held.
    private func describeState(of identifier: ModuleIdentifier, at position: Int) -> (ModuleDescription.State, String?) {
        if cache.isInjected(identifier) { return (.injected, nil) }
        switch graph.state(at: position) {
        case .registered: return (.registered, nil)
        case .loading: return (.loading, nil)
        case .loaded: return (.loaded, nil)
        case .failed(let error): return (.failed, error.description)
        }
    }
}
