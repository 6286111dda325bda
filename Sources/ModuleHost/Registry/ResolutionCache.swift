/// The resolved modules and services, and the injections that override them: the truth behind a short lock that
/// no user code ever runs under, published for warm resolves as lock-free snapshots (``WarmResolutions``).
///
/// Invariants, kept by every method here: an injected module or service is always in the cache (so a resolve
/// finds it), and nothing removes it but removing the injection; a service box stored under
/// `ObjectIdentifier(Service.self)` is always a `ServiceBox<Service>`; the published snapshot holds a subset of the
/// cache, every entry as the cache has it. Removing or replacing an entry therefore publishes at once (and returns
/// only when no reader can still see the old entry); adding one publishes later, once lookups that missed the
/// snapshot have found enough entries here to pay for copying it (each publish copies the cache, so publishing on
/// every load would make loading n modules cost n² work).
final class ResolutionCache: Sendable {
    private struct Entries: Sendable {
        var modules: [ModuleIdentifier: any ModuleProtocol] = [:]
        var services: [ObjectIdentifier: any AnyServiceBox] = [:]
        var injectedModules: [ModuleIdentifier: any ModuleProtocol] = [:]
        var injectedServices: [ObjectIdentifier: any AnyServiceBox] = [:]
        /// Entries added since the last publish.
        var unpublished = 0
        /// Lookups since the last publish that missed the snapshot and found an entry here.
        var missedHits = 0
        /// Entries in the last snapshot published.
        var publishedCount = 0
    }

    private let entries = Locked(Entries())
    /// What warm resolves read.
    let warm: WarmResolutions

    /// An empty cache; `readersFence` as for ``WarmResolutions/init(readersFence:)``.
    init(readersFence: Bool = !SnapshotReaders.readersEnterUnfenced) {
        warm = WarmResolutions(readersFence: readersFence)
    }

    /// The cached (or injected) module for `identifier`.
    func module(_ identifier: ModuleIdentifier) -> (any ModuleProtocol)? {
        if let module = warm.module(identifier) { return module }
        return entries.withLock { entries in
            let module = entries.modules[identifier]
            if module != nil { noteMissedHit(&entries) }
            return module
        }
    }

    /// The cached (or injected) service of static type `Service`.
    func service<Service: Sendable>(_ type: Service.Type) -> Service? {
        if let service = warm.service(Service.self) { return service }
        let box = entries.withLock { entries in
            let box = entries.services[ObjectIdentifier(Service.self)]
            if box != nil { noteMissedHit(&entries) }
            return box
        }
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
            guard entries.injectedModules[identifier] == nil else { return }
            let replaced = entries.modules.updateValue(module, forKey: identifier)
            settle(&entries, replacing: replaced != nil)
        }
    }

    /// Caches a resolved service, unless an injection made meanwhile overrides it.
    func store<Service: Sendable>(_ box: ServiceBox<Service>) {
        let key = ObjectIdentifier(Service.self)
        entries.withLock { entries in
            guard entries.injectedServices[key] == nil else { return }
            let replaced = entries.services.updateValue(box, forKey: key)
            settle(&entries, replacing: replaced != nil)
        }
    }

    /// Forgets the cached instances of `identifiers` and the services `serviceKeys`, keeping injections.
    func drop(modules identifiers: some Sequence<ModuleIdentifier>, services serviceKeys: some Sequence<ObjectIdentifier>) {
        entries.withLock { entries in
            var removed = false
            for identifier in identifiers where entries.injectedModules[identifier] == nil {
                removed = entries.modules.removeValue(forKey: identifier) != nil || removed
            }
            for key in serviceKeys where entries.injectedServices[key] == nil {
                removed = entries.services.removeValue(forKey: key) != nil || removed
            }
            if removed { publish(&entries) }
        }
    }

    /// Forgets every cached instance but the injected ones.
    func dropAll() {
        entries.withLock { entries in
            entries.modules = entries.injectedModules
            entries.services = entries.injectedServices
            publish(&entries)
        }
    }

    /// Injects `module` for `identifier`, dropping the cached services it provides (`serviceKeys`).
    func inject(_ module: any ModuleProtocol, for identifier: ModuleIdentifier, providing serviceKeys: [ObjectIdentifier]) {
        entries.withLock { entries in
            entries.injectedModules[identifier] = module
            entries.modules[identifier] = module
            for key in serviceKeys where entries.injectedServices[key] == nil {
                entries.services[key] = nil
            }
            publish(&entries)
        }
    }

    /// Removes the module injected for `identifier`; the cache goes back to `loaded` (the registered instance,
    /// if one is loaded). Returns whether there was an injection.
    func removeInjection(for identifier: ModuleIdentifier, loaded: (any ModuleProtocol)?, providing serviceKeys: [ObjectIdentifier]) -> Bool {
        entries.withLock { entries in
            guard entries.injectedModules.removeValue(forKey: identifier) != nil else { return false }
            entries.modules[identifier] = loaded
            for key in serviceKeys where entries.injectedServices[key] == nil {
                entries.services[key] = nil
            }
            publish(&entries)
            return true
        }
    }

    /// Injects `service` as the service of static type `Service`.
    func inject<Service: Sendable>(_ service: Service, as type: Service.Type) {
        let key = ObjectIdentifier(Service.self)
        let box = ServiceBox<Service>(service)
        entries.withLock { entries in
            entries.injectedServices[key] = box
            entries.services[key] = box
            publish(&entries)
        }
    }

    /// Removes the service injected as `Service`; resolves go back to its provider.
    func removeInjection<Service: Sendable>(as type: Service.Type) {
        let key = ObjectIdentifier(Service.self)
        entries.withLock { entries in
            guard entries.injectedServices.removeValue(forKey: key) != nil else { return }
            entries.services[key] = nil
            publish(&entries)
        }
    }

    /// Whether `identifier` is served by an injection.
    func isInjected(_ identifier: ModuleIdentifier) -> Bool {
        entries.withLock { $0.injectedModules[identifier] != nil }
    }

    // MARK: Publishing

    /// After an entry was stored: a replaced entry may be in the snapshot, so publish now; a new one waits.
    private func settle(_ entries: inout Entries, replacing: Bool) {
        if replacing {
            publish(&entries)
        } else {
            entries.unpublished += 1
        }
    }

    /// Counts a lookup that the snapshot missed and the cache answered; publishes once such lookups have paid for
    /// the copy (one per eight entries published, so the copying stays linear in the lookups).
    private func noteMissedHit(_ entries: inout Entries) {
        guard entries.unpublished > 0 else { return }
        entries.missedHits += 1
        if entries.missedHits * 8 >= entries.publishedCount { publish(&entries) }
    }

    /// Publishes the cache as it is now, with the lock held (readers never take it, so waiting for them is safe).
    private func publish(_ entries: inout Entries) {
        var services: [ObjectIdentifier: AnyObject] = [:]
        services.reserveCapacity(entries.services.count)
        for (key, box) in entries.services { services[key] = box }
        warm.publish(ResolutionSnapshot(modules: entries.modules, services: services))
        entries.unpublished = 0
        entries.missedHits = 0
        entries.publishedCount = entries.modules.count + entries.services.count
    }
}
