/// The resolved modules and services, and the injections that override them: the truth behind a short lock that
/// no user code ever runs under, published for warm resolves as lock-free snapshots (``WarmResolutions``).
///
/// Invariants, kept by every method here: an injected module or service is always in the cache (so a resolve
/// finds it), and nothing removes it but removing the injection; a service box stored under
/// `ObjectIdentifier(Service.self)` always holds a `Service`; the published snapshot holds a subset of the
/// cache, every entry as the cache has it.
///
/// So that total work stays linear however many entries come and go:
/// - adding an entry publishes nothing; the snapshot is rebuilt once lookups that missed it but found an entry here
///   have paid for the copy (one such lookup per eight entries copied);
/// - removing or replacing an entry that the snapshot holds publishes the empty snapshot at once (readers then use
///   the lock until the next rebuild), and one the snapshot does not hold publishes nothing.
/// What a change retires is handed back (``RetiredResolutions``) and let go of once the caller holds no lock.
final class ResolutionCache: Sendable {
    private struct Entries: Sendable {
        var modules: [ModuleIdentifier: any ModuleProtocol] = [:]
        var services: [ObjectIdentifier: ServiceBox] = [:]
        var injectedModules: [ModuleIdentifier: any ModuleProtocol] = [:]
        var injectedServices: [ObjectIdentifier: ServiceBox] = [:]
        /// Whether the cache holds entries the snapshot does not.
        var hasUnpublished = false
        /// Lookups since the last rebuild that missed the snapshot and found an entry here.
        var missedHits = 0

        var count: Int { modules.count + services.count }
    }

    private let entries = Locked(Entries())
    /// What warm resolves read.
    let warm: WarmResolutions
    /// How many entries every rebuild of the snapshot has copied, in all: for tests that check the copying stays
    /// linear.
    private let copied = Locked(0)

    /// An empty cache.
    init() {
        warm = WarmResolutions()
    }

    /// How many entries the snapshots built so far have copied, in all.
    var entriesCopied: Int {
        copied.withLock { $0 }
    }

    // MARK: Lookups

    /// The cached (or injected) module for `identifier`.
    func module(_ identifier: ModuleIdentifier) -> (any ModuleProtocol)? {
        if let module = warm.module(identifier) { return module }
        let (module, retired) = entries.withLock { entries in
            let module = entries.modules[identifier]
            return (module, module == nil ? nil : noteMissedHit(&entries))
        }
        retired?.dispose()
        return module
    }

    /// The box of the cached (or injected) service whose static type has identity `key`.
    ///
    /// A box, not the service: the registry's resolve is not specialized, and a `Service?` there would make the
    /// runtime build `Optional<Service>` on the first resolve of every service type.
    func serviceBox(_ key: ObjectIdentifier) -> ServiceBox? {
        if let box = warm.serviceBox(key) { return box }
        let (box, retired) = entries.withLock { entries in
            let box = entries.services[key]
            return (box, box == nil ? nil : noteMissedHit(&entries))
        }
        retired?.dispose()
        return box
    }

    /// The module injected for `identifier`, if any.
    func injectedModule(_ identifier: ModuleIdentifier) -> (any ModuleProtocol)? {
        entries.withLock { $0.injectedModules[identifier] }
    }

    /// Whether a service of type identity `key` is injected.
    func hasInjectedService(_ key: ObjectIdentifier) -> Bool {
        entries.withLock { $0.injectedServices[key] != nil }
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
            if entries.modules.insertIfAbsent(module, forKey: identifier) { entries.hasUnpublished = true }
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
            entries.hasUnpublished = true
            return box
        }
    }

    // MARK: Removing and replacing

    /// Forgets the cached instances of `identifiers` and the services `serviceKeys`, keeping injections.
    func drop(modules identifiers: some Sequence<ModuleIdentifier>,
              services serviceKeys: some Sequence<ObjectIdentifier>) -> RetiredResolutions {
        entries.withLock { entries in
            var retired = RetiredResolutions()
            var published = false
            for identifier in identifiers where entries.injectedModules[identifier] == nil {
                guard let module = entries.modules.removeValue(forKey: identifier) else { continue }
                retired.values.append(module)
                published = published || warm.holdsModule(identifier)
            }
            published = removeServices(serviceKeys, from: &entries, into: &retired) || published
            if published { retired.snapshot = unpublish(&entries) }
            return retired
        }
    }

    /// Injects `module` for `identifier`, dropping the cached services it provides (`serviceKeys`).
    func inject(_ module: any ModuleProtocol, for identifier: ModuleIdentifier,
                providing serviceKeys: [ObjectIdentifier]) -> RetiredResolutions {
        entries.withLock { entries in
            var retired = RetiredResolutions()
            var published = warm.holdsModule(identifier)
            entries.injectedModules[identifier] = module
            if let replaced = entries.modules.updateValue(module, forKey: identifier) { retired.values.append(replaced) }
            published = removeServices(serviceKeys, from: &entries, into: &retired) || published
            entries.hasUnpublished = true
            if published { retired.snapshot = unpublish(&entries) }
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
            var published = warm.holdsModule(identifier)
            entries.modules[identifier] = loaded
            published = removeServices(serviceKeys, from: &entries, into: &retired) || published
            if loaded != nil { entries.hasUnpublished = true }
            if published { retired.snapshot = unpublish(&entries) }
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
            entries.hasUnpublished = true
            if warm.holdsService(key) { retired.snapshot = unpublish(&entries) }
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
            if warm.holdsService(key) { retired.snapshot = unpublish(&entries) }
            return retired
        }
        retired.dispose()
    }

    /// Removes the cached (not injected) services `keys`, handing their boxes to `retired`; returns whether the
    /// snapshot holds any of them.
    private func removeServices(_ keys: some Sequence<ObjectIdentifier>, from entries: inout Entries,
                                into retired: inout RetiredResolutions) -> Bool {
        var published = false
        for key in keys where entries.injectedServices[key] == nil {
            guard let box = entries.services.removeValue(forKey: key) else { continue }
            retired.values.append(box)
            published = published || warm.holdsService(key)
        }
        return published
    }

    // MARK: Publishing

    /// Publishes the empty snapshot, so that nothing removed or replaced is read any more; returns the one replaced.
    /// O(1): the next rebuild, paid for by lookups, brings the rest back.
    private func unpublish(_ entries: inout Entries) -> Unmanaged<ResolutionSnapshot> {
        entries.hasUnpublished = entries.count > 0
        entries.missedHits = 0
        return warm.replace(with: ResolutionSnapshot())
    }

    /// Counts a lookup that the snapshot missed and the cache answered; once such lookups have paid for copying the
    /// cache (one per eight entries), rebuilds the snapshot; returns the snapshot replaced, for the caller to let go
    /// of once it has let go of the lock.
    private func noteMissedHit(_ entries: inout Entries) -> RetiredResolutions? {
        guard entries.hasUnpublished else { return nil }
        entries.missedHits += 1
        guard entries.missedHits * 8 >= entries.count else { return nil }
        let replaced = warm.replace(with: ResolutionSnapshot(modules: entries.modules, services: entries.services))
        copied.withLock { $0 += entries.count }
        entries.hasUnpublished = false
        entries.missedHits = 0
        return RetiredResolutions(snapshot: replaced)
    }
}
