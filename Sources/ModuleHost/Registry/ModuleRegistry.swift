#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Holds the registered modules, loads each exactly once, and caches loaded modules and services: the live
/// implementation of the bridge's ``ModuleResolving``.
///
/// Its parts: the ``RegistrationTable`` (who is registered and provides what), the ``LoadingGraph`` (the
/// loading state machine) and the ``ResolutionCache`` (loaded modules, resolved services and injections). Two levels
/// of locking keep user code out of every critical section:
/// - a warm resolve reads the cache under its own short lock;
/// - the slow path (registration, first load, unload) uses `condition`, and releases it before calling `init()`
///   or `moduleDidLoad`. A thread that needs a module another thread is loading waits on `condition`; before
///   waiting it checks the wait-for graph, so a cycle (on one thread or across threads) is reported as
///   `ResolutionError.Code.resolutionCycle` instead of deadlocking.
package final class ModuleRegistry: ModuleResolving, @unchecked Sendable {
    // `@unchecked`: `table` and `graph` are only touched with `condition` held.
    let condition = Condition()
    let table = RegistrationTable()
    var graph = LoadingGraph()
    let cache = ResolutionCache()

    /// The context (the manager) handed to `moduleDidLoad`; weak, because the manager owns the registry.
    package let owner = WeakContextReference()
    /// Tells loaded session modules about the user session.
    let sessions = SessionBroadcaster()

    func setOwner(_ context: any ModuleContext) {
        owner.set(context)
    }

    /// Runs `body` with `condition` held.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    // MARK: Registration

    /// Adds validated registrations, in order; returns what clashes with registered ones, identifiers or unique
    /// contribution keys (then nothing is added).
    func add(_ registrations: [ModuleRegistration],
             routing: (settings: RoutingSettings, origin: String)? = nil) -> [RegistrationTable.Clash] {
        // Room for every registered module, so that loading them does not grow these tables over and over.
        let (clashes, registered) = locked {
            let clashes = table.add(registrations, routing: routing)
            if clashes.isEmpty { graph.add(registrations.lazy.map(\.identifier)) }
            return (clashes, table.ordered.count)
        }
        if clashes.isEmpty { cache.reserveCapacity(modules: registered) }
        return clashes
    }

    /// The routing settings registered with the modules, and the registrations, in registration order (whose
    /// contributions and route overrides make the table of routes).
    package func routing() -> (settings: RoutingSettings, registrations: [ModuleRegistration]) {
        locked { (table.routing?.settings ?? .standard, table.ordered) }
    }

    /// Registrations in registration order (manifest order, then code order).
    func orderedRegistrations() -> [ModuleRegistration] {
        locked { table.ordered }
    }

    func registration(for identifier: ModuleIdentifier) -> ModuleRegistration? {
        locked { table[identifier] }
    }

    /// Declares an extension point; false when its name is taken by another.
    func declare(_ point: ExtensionPointDeclaration) -> Bool {
        locked { table.declare(point) }
    }

    /// What validation of a new manifest must not clash with.
    func registeredModules() -> RegisteredModules {
        locked { table.registeredModules() }
    }

    // MARK: Resolution

    /// The module for `identifier`, loading it (and the modules it requires) on first use.
    package func module(_ identifier: ModuleIdentifier) throws(ResolutionError) -> any ModuleProtocol {
        if let module = cache.module(identifier) {
            return module
        }
        return try load(identifier)
    }

    /// The service of static type `Service`, loading its provider on first use.
    func service<Service: Sendable>(_ type: Service.Type) throws(ResolutionError) -> Service {
        // Through the box: see ResolutionCache.serviceBox(_:).
        if let box = cache.serviceBox(ObjectIdentifier(Service.self)) {
            return box.value(as: Service.self)
        }
        return try loadService(Service.self)
    }

    /// Whether some module (or an injection) provides the service whose type has identity `key`: a cached service
    /// (an injected one is always cached) answers under the cache's short lock alone.
    func provides(_ key: ObjectIdentifier) -> Bool {
        cache.serviceBox(key) != nil || locked { table.provider(of: key) != nil }
    }

    /// Every service declared by a registered module, with its provider, in registration order.
    func serviceDescriptions() -> [ModuleBridge.ServiceDescription] {
        locked { table.serviceDescriptions() }
    }

    private func loadService<Service: Sendable>(_ type: Service.Type) throws(ResolutionError) -> Service {
        let key = ObjectIdentifier(Service.self)
        condition.lock()
        guard let provider = table.provider(of: key) else {
            let available = table.serviceNames
            condition.unlock()
            let list = available.isEmpty ? "no services are registered" : "available: \(available.joined(separator: ", "))"
            throw ResolutionError(.unprovidedService, "no registered module provides \(TypeName.of(Service.self)); \(list)")
        }
        var module = try loadHoldingCondition(provider.module, at: provider.position)
        while true {
            // The provider is keyed by its declared static type, so its box holds a Service; checked anyway.
            // No box: an injected instance that is neither the declared module type nor conforms to the service.
            guard let box = provider.service.makeBox(module), box.holds(Service.self) else {
                throw ResolutionError(
                    .serviceNotImplemented,
                    "module \"\(provider.module)\" (\(TypeName.of(Swift.type(of: module)))) cannot provide \(provider.service.name): "
                        + "it is not \(TypeName.of(provider.service.module)), which the declaration names, and does not conform to it")
            }
            // Cached only if the module is still the loaded instance (or the injection): one released meanwhile is
            // never handed out, and its service is resolved again.
            let settled = locked {
                cache.settle(box, from: module, provider: provider.module,
                             isLoaded: graph.loadedModule(at: provider.position) === module)
            }
            if let settled { return settled.value(as: Service.self) }
            module = try load(provider.module, at: provider.position)
        }
    }
}
