extension ModuleRegistry {
    /// The loaded modules, in load order.
    func loadedModules() -> [any ModuleProtocol] {
        locked { graph.loadOrder.compactMap { graph.loadedModule($0) } }
    }

    /// A description of every registered module, in registration order.
    func descriptions() -> [ModuleDescription] {
        locked {
            table.ordered.map { registration in
                let (state, failure) = describeState(of: registration.identifier)
                return ModuleDescription(
                    identifier: registration.identifier, typeName: registration.typeName,
                    services: registration.providedServices.map(\.name), requiredModules: registration.requiredModules,
                    eager: registration.eager, origin: registration.origin, state: state, failure: failure)
            }
        }
    }

    /// The state of `identifier` as listings show it, with its failure. Must be called with `condition` held.
    private func describeState(of identifier: ModuleIdentifier) -> (ModuleDescription.State, String?) {
        if cache.isInjected(identifier) { return (.injected, nil) }
        switch graph.state(of: identifier) {
        case .registered: return (.registered, nil)
        case .loading: return (.loading, nil)
        case .loaded: return (.loaded, nil)
        case .failed(let error): return (.failed, error.description)
        }
    }
}
