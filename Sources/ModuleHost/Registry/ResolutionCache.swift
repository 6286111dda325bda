/// The warm path of resolution, and the injections that override it: the loaded modules and resolved services
/// by key, behind one short lock that no user code ever runs under.
///
/// Invariants, kept by every method here: an injected module or service is always in the cache (so a warm
/// resolve finds it), and nothing removes it but removing the injection; a service box stored under
/// `ObjectIdentifier(Service.self)` is always a `ServiceBox<Service>`.
final class ResolutionCache: WarmServiceLookup {
    private struct Entries: Sendable {
        var modules: [ModuleIdentifier: any ModuleProtocol] = [:]
        var services: [ObjectIdentifier: any AnyServiceBox] = [:]
        var injectedModules: [ModuleIdentifier: any ModuleProtocol] = [:]
        var injectedServices: [ObjectIdentifier: any AnyServiceBox] = [:]
    }

    private let entries = Locked(Entries())

    /// The cached (or injected) module for `identifier`.
    func module(_ identifier: ModuleIdentifier) -> (any ModuleProtocol)? {
        entries.withLock { $0.modules[identifier] }
    }

    /// The box cached (or injected) for the service whose static type has identity `key`.
    func cachedServiceBox(_ key: ObjectIdentifier) -> AnyObject? {
        entries.withLock { $0.services[key] }
    }

    /// The cached (or injected) service of static type `Service`.
    func service<Service: Sendable>(_ type: Service.Type) -> Service? {
        let box = entries.withLock { $0.services[ObjectIdentifier(Service.self)] }
        // Stored only under the key of its own static type (see the invariants), so the cast is exact.
        return box.map { unsafeDowncast($0, to: ServiceBox<Service>.self).value }
    }

    /// The module injected for `identifier`, if any.
    func injectedModule(_ identifier: ModuleIdentifier) -> (any ModuleProtocol)? {
        entries.withLock { $0.injectedModules[identifier] }
    }

    /// Whether a service of type identity `key` is injected.
    func hasInjectedService(_ key: ObjectIdentifier) -> Bool {
        entries.withLock { $0.injectedServices[key] != nil }
    }

    /// Caches a module that finished loading, unless an injection made meanwhile overrides it.
    func store(_ module: any ModuleProtocol, for identifier: ModuleIdentifier) {
        entries.withLock { entries in
            if entries.injectedModules[identifier] == nil { entries.modules[identifier] = module }
        }
    }

    /// Caches a resolved service, unless an injection made meanwhile overrides it.
    func store<Service: Sendable>(_ box: ServiceBox<Service>) {
        let key = ObjectIdentifier(Service.self)
        entries.withLock { entries in
            if entries.injectedServices[key] == nil { entries.services[key] = box }
        }
    }

    /// Forgets the cached instances of `identifiers` and the services `serviceKeys`, keeping injections.
    func drop(modules identifiers: some Sequence<ModuleIdentifier>, services serviceKeys: some Sequence<ObjectIdentifier>) {
        entries.withLock { entries in
            for identifier in identifiers where entries.injectedModules[identifier] == nil {
                entries.modules[identifier] = nil
            }
            for key in serviceKeys where entries.injectedServices[key] == nil {
                entries.services[key] = nil
            }
        }
    }

    /// Forgets every cached instance but the injected ones.
    func dropAll() {
        entries.withLock { entries in
            entries.modules = entries.injectedModules
            entries.services = entries.injectedServices
        }
    }

    /// Injects `module` for `identifier`, dropping the cached services it provides (`serviceKeys`).
    func inject(_ module: any ModuleProtocol, for identifier: ModuleIdentifier, providing serviceKeys: [ObjectIdentifier]) {
        entries.withLock { entries in
            entries.injectedModules[identifier] = module
            entries.modules[identifier] = module
        }
        drop(modules: [], services: serviceKeys)
    }

    /// Removes the module injected for `identifier`; the cache goes back to `loaded` (the registered instance,
    /// if one is loaded). Returns whether there was an injection.
    func removeInjection(for identifier: ModuleIdentifier, loaded: (any ModuleProtocol)?, providing serviceKeys: [ObjectIdentifier]) -> Bool {
        let removed = entries.withLock { entries in
            guard entries.injectedModules.removeValue(forKey: identifier) != nil else { return false }
            entries.modules[identifier] = loaded
            return true
        }
        if removed { drop(modules: [], services: serviceKeys) }
        return removed
    }

    /// Injects `service` as the service of static type `Service`.
    func inject<Service: Sendable>(_ service: Service, as type: Service.Type) {
        let key = ObjectIdentifier(Service.self)
        let box = ServiceBox<Service>(service)
        entries.withLock { entries in
            entries.injectedServices[key] = box
            entries.services[key] = box
        }
    }

    /// Removes the service injected as `Service`; resolves go back to its provider.
    func removeInjection<Service: Sendable>(as type: Service.Type) {
        let key = ObjectIdentifier(Service.self)
        entries.withLock { entries in
            guard entries.injectedServices.removeValue(forKey: key) != nil else { return }
            entries.services[key] = nil
        }
    }

    /// Whether `identifier` is served by an injection.
    func isInjected(_ identifier: ModuleIdentifier) -> Bool {
        entries.withLock { $0.injectedModules[identifier] != nil }
    }
}
