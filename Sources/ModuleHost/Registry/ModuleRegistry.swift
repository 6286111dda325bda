import Foundation

/// Holds the registered modules, loads each exactly once, and caches loaded modules and services.
///
/// Two levels of locking keep user code out of every critical section:
/// - the hot path (a warm resolve) reads `moduleCache` or `serviceCache` under a short `Locked`;
/// - the slow path (registration, first load, injection, unload) uses `condition`, and releases it before
///   calling `init()` or `moduleDidLoad`. A thread that needs a module another thread is loading waits on
///   `condition`; before waiting it checks the wait-for graph, so a cycle (on one thread or across threads)
///   is reported as ``ResolutionError/Code/resolutionCycle`` instead of deadlocking.
final class ModuleRegistry: ModuleResolving, @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var registrations: [ModuleIdentifier: ModuleRegistration] = [:]
    private var registrationOrder: [ModuleIdentifier] = []
    private var states: [ModuleIdentifier: LoadState] = [:]
    private var loadOrder: [ModuleIdentifier] = []
    private var providers: [ObjectIdentifier: (module: ModuleIdentifier, service: ProvidedService)] = [:]
    private var loadingStacks: [ThreadIdentity: [ModuleIdentifier]] = [:]
    private var waitingFor: [ThreadIdentity: ModuleIdentifier] = [:]
    private var injectedModules: [ModuleIdentifier: any ModuleProtocol] = [:]
    private var injectedServices: [ObjectIdentifier: AnyServiceBox] = [:]

    // The hot path.
    private let moduleCache = Locked<[ModuleIdentifier: any ModuleProtocol]>([:])
    private let serviceCache = Locked<[ObjectIdentifier: AnyServiceBox]>([:])

    /// The context (the manager) handed to `moduleDidLoad`; weak, because the manager owns the registry.
    private let owner = WeakContextReference()
    /// Tells loaded session modules about the user session.
    let sessions = SessionBroadcaster()

    func setOwner(_ context: any ModuleContext) {
        owner.set(context)
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    // MARK: Registration

    /// What validation of a new manifest must not clash with.
    func existing() -> ManifestValidator.Existing {
        locked {
            var existing = ManifestValidator.Existing()
            for identifier in registrationOrder {
                guard let registration = registrations[identifier] else { continue }
                existing.identifiers[identifier] = "\(registration.typeName) (\(registration.origin))"
                existing.typeNames.append(registration.typeName)
                for command in ModuleCommandDeclarations.commands(of: registration.type) {
                    existing.commands[command.name] = "\(registration.typeName) (\(registration.origin))"
                }
            }
            for (key, provider) in providers {
                existing.services[key] = (provider.service.name, provider.module)
            }
            return existing
        }
    }

    /// Adds validated registrations, in order. Returns the identifiers that clash with existing ones
    /// (possible only when another registration raced in after validation); those are not added.
    func add(_ newRegistrations: [ModuleRegistration]) -> [ModuleIdentifier] {
        locked {
            let clashes = newRegistrations.map(\.identifier).filter { registrations[$0] != nil }
            guard clashes.isEmpty else { return clashes }
            for registration in newRegistrations {
                registrations[registration.identifier] = registration
                registrationOrder.append(registration.identifier)
                states[registration.identifier] = .registered
                for service in registration.providedServices where providers[service.key] == nil {
                    providers[service.key] = (registration.identifier, service)
                }
            }
            return []
        }
    }

    /// Registrations in registration order (manifest order, then code order).
    func orderedRegistrations() -> [ModuleRegistration] {
        locked { registrationOrder.compactMap { registrations[$0] } }
    }

    func registration(for identifier: ModuleIdentifier) -> ModuleRegistration? {
        locked { registrations[identifier] }
    }

    // MARK: Resolution

    /// The module for `identifier`, loading it (and the modules it requires) on first use.
    func module(_ identifier: ModuleIdentifier) throws(ResolutionError) -> any ModuleProtocol {
        if let module = moduleCache.withLock({ $0[identifier] }) {
            return module
        }
        return try load(identifier)
    }

    /// The service of type `Service`, loading its provider on first use.
    func service<Service: Sendable>(_ type: Service.Type) throws(ResolutionError) -> Service {
        let key = ObjectIdentifier(Service.self)
        if let box = serviceCache.withLock({ $0[key] }) {
            // The cache is keyed by the service type's identity, so the box is a ServiceBox<Service>.
            return unsafeDowncast(box, to: ServiceBox<Service>.self).value
        }
        return try loadService(type, key: key)
    }

    /// Every service declared by a registered module, with its provider, in registration order.
    func serviceDescriptions() -> [ServiceDescription] {
        locked {
            registrationOrder.flatMap { identifier in
                (registrations[identifier]?.providedServices ?? []).compactMap { service in
                    providers[service.key]?.module == identifier ? ServiceDescription(name: service.name, provider: identifier) : nil
                }
            }
        }
    }

    /// Loads the provider of the service named `name` and checks that its instance provides it.
    func verifyService(named name: String) throws(ResolutionError) {
        let provider = locked { providers.values.first { $0.service.name == name } }
        guard let provider else {
            throw ResolutionError(.unprovidedService, "no registered module provides a service named \(name)")
        }
        let module = try load(provider.module)
        guard provider.service.makeBox(module) != nil else {
            throw ResolutionError(.serviceNotImplemented,
                                  "module \"\(provider.module)\" declares that it provides \(name), but it does not conform to it")
        }
    }

    /// Whether some module (or an injection) provides `Service`.
    func provides(_ key: ObjectIdentifier) -> Bool {
        locked { providers[key] != nil || injectedServices[key] != nil }
    }

    private func loadService<Service: Sendable>(_ type: Service.Type, key: ObjectIdentifier) throws(ResolutionError) -> Service {
        condition.lock()
        if let box = injectedServices[key] {
            condition.unlock()
            return unsafeDowncast(box, to: ServiceBox<Service>.self).value
        }
        guard let provider = providers[key] else {
            let available = providers.values.map(\.service.name).sorted()
            condition.unlock()
            let list = available.isEmpty ? "no services are registered" : "available: \(available.joined(separator: ", "))"
            throw ResolutionError(.unprovidedService, "no registered module provides \(String(reflecting: type)); \(list)")
        }
        condition.unlock()

        while true {
            let module = try load(provider.module)
            guard let box = provider.service.makeBox(module) else {
                throw ResolutionError(
                    .serviceNotImplemented,
                    "module \"\(provider.module)\" (\(String(reflecting: Swift.type(of: module)))) declares that it provides \(provider.service.name), but it does not conform to it")
            }
            let current: Bool = locked {
                if injectedModules[provider.module] === module || injectedServices[key] != nil { return true }
                // Cache only if the module is still the loaded instance; one released meanwhile is never handed out.
                guard case .loaded(let loaded) = states[provider.module], loaded === module else { return false }
                serviceCache.withLock { $0[key] = box }
                return true
            }
            if current { return unsafeDowncast(box, to: ServiceBox<Service>.self).value }
        }
    }

    /// Loads `identifier` exactly once; concurrent callers wait for the first, re-entrant cycles throw.
    private func load(_ identifier: ModuleIdentifier) throws(ResolutionError) -> any ModuleProtocol {
        let me = ThreadIdentity.current
        condition.lock()
        while true {
            if let injected = injectedModules[identifier] {
                condition.unlock()
                return injected
            }
            guard let registration = registrations[identifier] else {
                let available = registrationOrder.map(\.rawValue)
                condition.unlock()
                let hint = Suggestions.closest(to: identifier.rawValue, in: available).map { "; did you mean \"\($0)\"?" } ?? ""
                let list = available.isEmpty ? "no modules are registered" : "registered: \(available.joined(separator: ", "))"
                throw ResolutionError(.unknownModule, "no module with identifier \"\(identifier)\" is registered (\(list))\(hint)")
            }
            switch states[identifier] ?? .registered {
            case .loaded(let module):
                condition.unlock()
                return module
            case .failed(let error):
                condition.unlock()
                throw error
            case .loading(let owner):
                if let cycle = waitCycle(of: me, wanting: identifier, owner: owner) {
                    condition.unlock()
                    let path = cycle.map(\.rawValue).joined(separator: " -> ")
                    throw ResolutionError(.resolutionCycle, "modules resolve each other while loading, in a cycle: \(path)", cycle: cycle)
                }
                waitingFor[me] = identifier
                condition.wait()
                waitingFor[me] = nil
            case .registered:
                states[identifier] = .loading(by: me)
                loadingStacks[me, default: []].append(identifier)
                condition.unlock()

                let result = instantiate(registration)

                condition.lock()
                loadingStacks[me]?.removeLast()
                if loadingStacks[me]?.isEmpty == true { loadingStacks[me] = nil }
                switch result {
                case .success(let module):
                    states[identifier] = .loaded(module)
                    loadOrder.append(identifier)
                    // An injection made while this module was loading keeps the cache.
                    if injectedModules[identifier] == nil {
                        moduleCache.withLock { $0[identifier] = module }
                    }
                case .failure(let error):
                    states[identifier] = .failed(error)
                }
                condition.broadcast()
                condition.unlock()
                return try result.get()
            }
        }
    }

    /// Runs the module's required loads, `init()` and `moduleDidLoad`, with no lock held.
    private func instantiate(_ registration: ModuleRegistration) -> Result<any ModuleProtocol, ResolutionError> {
        let identifier = registration.identifier
        for requirement in registration.requiredModules {
            do {
                _ = try module(requirement)
            } catch where error.code == .resolutionCycle {
                return .failure(error)
            } catch {
                return .failure(ResolutionError(
                    .loadFailed, "module \"\(identifier)\" requires \"\(requirement)\", which could not be loaded", underlyingError: error))
            }
        }
        guard let manager = owner.context else {
            return .failure(ResolutionError(.managerUnavailable, "the ModuleManager that registered \"\(identifier)\" no longer exists"))
        }
        let module = registration.type.init()
        do {
            try module.moduleDidLoad(with: manager)
        } catch let error as ResolutionError where error.code == .resolutionCycle {
            return .failure(error)
        } catch {
            return .failure(ResolutionError(
                .loadFailed, "module \"\(identifier)\" (\(registration.typeName)) failed to load", underlyingError: error))
        }
        // Still `.loading`, so nobody resolves the module before it was told the active session.
        sessions.attach(module)
        return .success(module)
    }

    /// If waiting for `owner` to finish loading `wanted` would never end, the cycle of modules involved.
    /// Must be called with `condition` held.
    private func waitCycle(of me: ThreadIdentity, wanting wanted: ModuleIdentifier, owner: ThreadIdentity) -> [ModuleIdentifier]? {
        var path: [ModuleIdentifier] = []
        var target = wanted
        var thread = owner
        var visited: Set<ThreadIdentity> = []
        while visited.insert(thread).inserted {
            // The part of `thread`'s loading chain from `target` on.
            let stack = loadingStacks[thread] ?? []
            let tail = stack.firstIndex(of: target).map { Array(stack[$0...]) } ?? [target]
            path.append(contentsOf: tail)
            if thread == me {
                return path + [wanted]
            }
            guard let next = waitingFor[thread], case .loading(let nextOwner) = states[next] else {
                return nil
            }
            target = next
            thread = nextOwner
        }
        return nil
    }

    // MARK: Eager loading, listing, configuration

    /// Loads every eager module in registration order; returns the failures.
    func loadEagerModules() -> [ResolutionError] {
        let eager = locked { registrationOrder.filter { registrations[$0]?.eager == true } }
        var failures: [ResolutionError] = []
        for identifier in eager {
            do { _ = try module(identifier) } catch { failures.append(error) }
        }
        return failures
    }

    /// The loaded modules, in load order.
    func loadedModules() -> [any ModuleProtocol] {
        locked {
            loadOrder.compactMap { identifier in
                if case .loaded(let module) = states[identifier] { return module }
                return nil
            }
        }
    }

    /// A description of every registered module, in registration order.
    func descriptions() -> [ModuleDescription] {
        locked {
            registrationOrder.compactMap { identifier in
                guard let registration = registrations[identifier] else { return nil }
                let state: ModuleDescription.State
                var failure: String?
                if injectedModules[identifier] != nil {
                    state = .injected
                } else {
                    switch states[identifier] ?? .registered {
                    case .registered: state = .registered
                    case .loading: state = .loading
                    case .loaded: state = .loaded
                    case .failed(let error):
                        state = .failed
                        failure = error.description
                    }
                }
                return ModuleDescription(
                    identifier: identifier, typeName: registration.typeName,
                    services: registration.providedServices.map(\.name), requiredModules: registration.requiredModules,
                    eager: registration.eager, origin: registration.origin, state: state, failure: failure)
            }
        }
    }

    // MARK: Injection

    func inject(_ module: any ModuleProtocol, for identifier: ModuleIdentifier) {
        locked {
            injectedModules[identifier] = module
            moduleCache.withLock { $0[identifier] = module }
            dropCachedServices(of: identifier)
        }
    }

    func removeInjection(for identifier: ModuleIdentifier) {
        locked {
            guard injectedModules.removeValue(forKey: identifier) != nil else { return }
            moduleCache.withLock { cache in
                if case .loaded(let module) = states[identifier] { cache[identifier] = module } else { cache[identifier] = nil }
            }
            dropCachedServices(of: identifier)
        }
    }

    func inject<Service: Sendable>(_ service: Service, as type: Service.Type) {
        let key = ObjectIdentifier(Service.self)
        let box = ServiceBox(service)
        locked {
            injectedServices[key] = box
            serviceCache.withLock { $0[key] = box }
        }
    }

    func removeInjection<Service: Sendable>(as type: Service.Type) {
        let key = ObjectIdentifier(Service.self)
        locked {
            guard injectedServices.removeValue(forKey: key) != nil else { return }
            serviceCache.withLock { $0[key] = nil }
        }
    }

    /// Must be called with `condition` held.
    private func dropCachedServices(of identifier: ModuleIdentifier) {
        let keys = providers.filter { $0.value.module == identifier && injectedServices[$0.key] == nil }.map(\.key)
        serviceCache.withLock { cache in
            for key in keys { cache[key] = nil }
        }
    }

    // MARK: Unloading

    /// Releases `identifier` and every loaded module that requires it, directly or not: forgets them (so the
    /// next resolve creates fresh instances), then calls `moduleWillUnload` in reverse load order. Waits for
    /// any of them that another thread is loading; returns the identifiers released, in that order.
    func release(_ identifier: ModuleIdentifier) throws(ResolutionError) -> [ModuleIdentifier] {
        let me = ThreadIdentity.current
        condition.lock()
        guard registrations[identifier] != nil else {
            condition.unlock()
            throw ResolutionError(.unknownModule, "no module with identifier \"\(identifier)\" is registered, so none can be released")
        }
        var affected = modulesRequiring(identifier)
        while let (busy, loader) = firstLoading(in: affected) {
            if loader == me || waitCycle(of: me, wanting: busy, owner: loader) != nil {
                condition.unlock()
                throw ResolutionError(
                    .releasedWhileLoading,
                    "cannot release \"\(identifier)\" while \"\(busy)\" is being loaded by the thread that asked for the release")
            }
            waitingFor[me] = busy
            condition.wait()
            waitingFor[me] = nil
            affected = modulesRequiring(identifier)
        }
        let released = forget(affected)
        condition.broadcast()
        condition.unlock()
        return finishUnloading(released)
    }

    /// `identifier` and every registered module that requires it, directly or not. Must be called with `condition` held.
    private func modulesRequiring(_ identifier: ModuleIdentifier) -> Set<ModuleIdentifier> {
        var dependents: [ModuleIdentifier: [ModuleIdentifier]] = [:]
        for (dependent, registration) in registrations {
            for requirement in registration.requiredModules { dependents[requirement, default: []].append(dependent) }
        }
        var found: Set<ModuleIdentifier> = [identifier]
        var pending = [identifier]
        while let next = pending.popLast() {
            for dependent in dependents[next] ?? [] where found.insert(dependent).inserted {
                pending.append(dependent)
            }
        }
        return found
    }

    /// The first of `identifiers` that some thread is loading, with that thread. Must be called with `condition` held.
    private func firstLoading(in identifiers: Set<ModuleIdentifier>) -> (ModuleIdentifier, ThreadIdentity)? {
        for identifier in identifiers {
            if case .loading(let loader) = states[identifier] { return (identifier, loader) }
        }
        return nil
    }

    /// Forgets the loaded (and failed) instances of `identifiers` and their cached services; returns the loaded
    /// ones in reverse load order. Must be called with `condition` held.
    private func forget(_ identifiers: Set<ModuleIdentifier>) -> [(ModuleIdentifier, any ModuleProtocol)] {
        var released: [(ModuleIdentifier, any ModuleProtocol)] = []
        for identifier in loadOrder.reversed() where identifiers.contains(identifier) {
            if case .loaded(let module) = states[identifier] { released.append((identifier, module)) }
        }
        for identifier in identifiers {
            switch states[identifier] {
            case .loaded?, .failed?: states[identifier] = .registered
            default: break
            }
            if injectedModules[identifier] == nil {
                moduleCache.withLock { $0[identifier] = nil }
            }
            dropCachedServices(of: identifier)
        }
        loadOrder.removeAll { identifiers.contains($0) }
        return released
    }

    /// Forgets every loaded (and failed) module, then calls `moduleWillUnload` in reverse load order.
    /// Modules still being loaded by another thread finish loading and stay loaded.
    func unloadAll() -> [ModuleIdentifier] {
        let unloaded: [(ModuleIdentifier, any ModuleProtocol)] = locked {
            var modules: [(ModuleIdentifier, any ModuleProtocol)] = []
            for identifier in loadOrder {
                if case .loaded(let module) = states[identifier] {
                    modules.append((identifier, module))
                    states[identifier] = .registered
                }
            }
            for (identifier, state) in states {
                if case .failed = state { states[identifier] = .registered }
            }
            loadOrder.removeAll()
            moduleCache.withLock { cache in
                cache = cache.filter { injectedModules[$0.key] != nil }
            }
            serviceCache.withLock { cache in
                cache = cache.filter { injectedServices[$0.key] != nil }
            }
            return modules
        }
        return finishUnloading(unloaded.reversed())
    }

    /// Stops session calls to `modules`, then calls `moduleWillUnload` on each, in the given order.
    private func finishUnloading(_ modules: [(ModuleIdentifier, any ModuleProtocol)]) -> [ModuleIdentifier] {
        for (_, module) in modules {
            sessions.detach(module)
        }
        for (_, module) in modules {
            module.moduleWillUnload()
        }
        return modules.map(\.0)
    }
}
