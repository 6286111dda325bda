/// Injection, for tests (``ModuleHostTesting``): a module or service that overrides the registered one.
extension ModuleRegistry {
    package func inject(_ module: any ModuleProtocol, for identifier: ModuleIdentifier) {
        let retired = locked {
            cache.inject(module, for: identifier, providing: table.serviceKeys(providedBy: identifier))
        }
        retired.dispose()
    }

    package func removeInjection(for identifier: ModuleIdentifier) {
        let (_, retired) = locked {
            cache.removeInjection(for: identifier, loaded: table.position(of: identifier).flatMap { graph.loadedModule(at: $0) },
                                  providing: table.serviceKeys(providedBy: identifier))
        }
        retired.dispose()
    }

    package func inject<Service: Sendable>(_ service: Service, as type: Service.Type) {
        cache.inject(service, as: Service.self)
    }

    package func removeInjection<Service: Sendable>(as type: Service.Type) {
        cache.removeInjection(as: Service.self)
    }
}
