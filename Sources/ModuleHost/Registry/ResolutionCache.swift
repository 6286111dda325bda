/// The resolved modules and services, and the injections that override them, behind one short lock that no user
/// code ever runs under.
///
/// Invariants, kept by every method here: an injected module or service is always in the cache (so a resolve
/// finds it), and nothing removes it but removing the injection; a service box stored under
/// `ObjectIdentifier(Service.self)` always holds a `Service`. What a change removes is handed back
/// (``RetiredResolutions``) and let go of once the caller holds no lock.
final class ResolutionCache: Sendable {
    private struct Entries: Sendable {
        var modules: [ModuleIdentifier: any ModuleProtocol] = [:]
        var services: [ObjectIdentifier: ServiceBox] = [:]
        var injectedModules: [ModuleIdentifier: any ModuleProtocol] = [:]
        var injectedServices: [ObjectIdentifier: ServiceBox] = [:]
    }

    private let entries = Locked(Entries())

    /// An empty cache.
    init() {}

    // MARK: Lookups

    /// The cached (or injected) module for `identifier`.
    func module(_ identifier: ModuleIdentifier) -> (any ModuleProtocol)? {
        entries.withLock { $0.modules[identifier] }
    }

    /// The box of the cached (or injected) service whose static type has identity `key`.
    ///
    /// A box, not the service: the registry's resolve is not specialized, and a `Service?` there would make the
    /// runtime build `Optional<Service>` on the first resolve of every service type.
    func serviceBox(_ key: ObjectIdentifier) -> ServiceBox? {
        entries.withLock { $0.services[key] }
    }

    /// The module injected for `identifier`, if any.
    func injectedModule(_ identifier: ModuleIdentifier) -> (any ModuleProtocol)? {
        entries.withLock { $0.injectedModules[identifier] }
    }

    /// Whether `identifier` is served by an injection.
    func isInjected(_ identifier: ModuleIdentifier) -> Bool {
        entries.withLock { $0.injectedModules[identifier] != nil }
    }

    // MARK: Adding

    /// Makes room for `count` cached modules in all.
    func reserveCapacity(modules count: Int) {
        entries.withLock { $0.modules.reserveCapacity(count) }
    }

    /// Caches a module that finished loading, unless an injection made meanwhile overrides it. An entry already
    /// cached stays: the first one stored is the one handed out.
    func store(_ module: any ModuleProtocol, for identifier: ModuleIdentifier) {
        entries.withLock { entries in
            guard entries.injectedModules[identifier] == nil else { return }
            _ = entries.modules.insertIfAbsent(module, forKey: identifier)
        }
    }

    /// Caches `box`, the service that `module` provides as `provider`, and returns the box a resolve hands out:
    /// the one cached or injected meanwhile, if there is one; else `box`, cached, if `module` is `provider`'s
    /// injection or `isLoaded` (still the loaded instance); else `nil` (the instance was released meanwhile).
    func settle(_ box: ServiceBox, from module: any ModuleProtocol, provider: ModuleIdentifier, isLoaded: Bool) -> ServiceBox? {
        let key = ObjectIdentifier(box.type)
        return entries.withLock { entries in
            if let cached = entries.services[key] { return cached }  // an injected service is always in `services`
            guard isLoaded || entries.injectedModules[provider] === module else { return nil }
            entries.services[key] = box
            return box
        }
    }

    // MARK: Removing and replacing

    /// Forgets the cached instances of `identifiers` and the services `serviceKeys`, keeping injections.
    func drop(modules identifiers: some Sequence<ModuleIdentifier>,
              services serviceKeys: some Sequence<ObjectIdentifier>) -> RetiredResolutions {
        entries.withLock { entries in
            var retired = RetiredResolutions()
            for identifier in identifiers where entries.injectedModules[identifier] == nil {
                guard let module = entries.modules.removeValue(forKey: identifier) else { continue }
                retired.values.append(module)
            }
            removeServices(serviceKeys, from: &entries, into: &retired)
            return retired
        }
    }

    /// Injects `module` for `identifier`, dropping the cached services it provides (`serviceKeys`).
    func inject(_ module: any ModuleProtocol, for identifier: ModuleIdentifier,
                providing serviceKeys: [ObjectIdentifier]) -> RetiredResolutions {
        entries.withLock { entries in
            var retired = RetiredResolutions()
            entries.injectedModules[identifier] = module
            if let replaced = entries.modules.updateValue(module, forKey: identifier) { retired.values.append(replaced) }
            removeServices(serviceKeys, from: &entries, into: &retired)
            return retired
        }
    }

    /// Removes the module injected for `identifier`; the cache goes back to `loaded` (the registered instance,
    /// if one is loaded). Returns whether there was an injection, and what the change retired.
    func removeInjection(for identifier: ModuleIdentifier, loaded: (any ModuleProtocol)?,
                         providing serviceKeys: [ObjectIdentifier]) -> (removed: Bool, retired: RetiredResolutions) {
        entries.withLock { entries in
            var retired = RetiredResolutions()
            guard let injected = entries.injectedModules.removeValue(forKey: identifier) else { return (false, retired) }
            retired.values.append(injected)
            entries.modules[identifier] = loaded
            removeServices(serviceKeys, from: &entries, into: &retired)
            return (true, retired)
        }
    }

    /// Injects `service` as the service of static type `Service`; returns once no resolve can still see the
    /// service it replaced.
    func inject<Service: Sendable>(_ service: Service, as type: Service.Type) {
        let key = ObjectIdentifier(Service.self)
        let box = ServiceBox(service)
        let retired = entries.withLock { entries in
            var retired = RetiredResolutions()
            entries.injectedServices[key] = box
            if let replaced = entries.services.updateValue(box, forKey: key) { retired.values.append(replaced) }
            return retired
        }
        retired.dispose()
    }

    /// Removes the service injected as `Service`; resolves go back to its provider. Returns once no resolve can
    /// still see the injected service.
    func removeInjection<Service: Sendable>(as type: Service.Type) {
        let key = ObjectIdentifier(Service.self)
        let retired = entries.withLock { entries in
            var retired = RetiredResolutions()
            guard let injected = entries.injectedServices.removeValue(forKey: key) else { return retired }
            retired.values.append(injected)
            entries.services[key] = nil
            return retired
        }
        retired.dispose()
    }

    /// Removes the cached (not injected) services `keys`, handing their boxes to `retired`.
    private func removeServices(_ keys: some Sequence<ObjectIdentifier>, from entries: inout Entries,
                                into retired: inout RetiredResolutions) {
        for key in keys where entries.injectedServices[key] == nil {
            guard let box = entries.services.removeValue(forKey: key) else { continue }
            retired.values.append(box)
        }
    }
}
