extension ModuleRegistry {
    /// Loads `identifier` exactly once; concurrent callers wait for the first, re-entrant cycles throw.
    func load(_ identifier: ModuleIdentifier) throws(ResolutionError) -> any ModuleProtocol {
        condition.lock()
        guard let position = table.position(of: identifier) else {
            let available = table.order.map(\.rawValue)
            condition.unlock()
            if let injected = cache.injectedModule(identifier) { return injected }
            throw Self.unknownModule(identifier, available: available)
        }
        return try loadHoldingCondition(identifier, at: position)
    }

    /// Loads `identifier`, registered at `position` in the table, exactly once; as ``load(_:)``.
    func load(_ identifier: ModuleIdentifier, at position: Int) throws(ResolutionError) -> any ModuleProtocol {
        condition.lock()
        return try loadHoldingCondition(identifier, at: position)
    }

    /// ``load(_:at:)``, called with `condition` held; returns (or throws) with it released.
    func loadHoldingCondition(_ identifier: ModuleIdentifier, at position: Int) throws(ResolutionError) -> any ModuleProtocol {
        let me = ThreadIdentity.current
        while true {
            if let injected = cache.injectedModule(identifier) {
                condition.unlock()
                return injected
            }
            switch graph.claim(position, by: me) {
            case .loaded(let module, _):
                condition.unlock()
                return module
            case .failed(let error):
                condition.unlock()
                throw error
            case .loading(let owner):
                if let cycle = graph.waitCycle(of: me, wanting: position, owner: owner) {
                    condition.unlock()
                    let path = cycle.map(\.rawValue).joined(separator: " -> ")
                    throw ResolutionError(.resolutionCycle, "modules resolve each other while loading, in a cycle: \(path)", cycle: cycle)
                }
                graph.setWaiting(me, for: position)
                condition.wait()
                graph.setWaiting(me, for: nil)
            case .registered:  // claimed: this thread loads it
                let registration = table.ordered[position]
                condition.unlock()
                let context = ModuleInstanceContext(module: identifier, registry: self)
                let module: any ModuleProtocol
                do {
                    module = try instantiate(registration, context: context)
                } catch {
                    condition.lock()
                    graph.finishLoading(position, by: me, failingWith: error)
                    context.retire()
                    condition.broadcast()
                    condition.unlock()
                    throw error
                }
                condition.lock()
                graph.finishLoading(position, by: me, loading: module, context: context)
                cache.store(module, for: identifier)
                condition.broadcast()
                condition.unlock()
                return module
            }
        }
    }

    private static func unknownModule(_ identifier: ModuleIdentifier, available: [String]) -> ResolutionError {
        let hint = Suggestions.closest(to: identifier.rawValue, in: available).map { "; did you mean \"\($0)\"?" } ?? ""
        let list = available.isEmpty ? "no modules are registered" : "registered: \(available.joined(separator: ", "))"
        return ResolutionError(.unknownModule, "no module with identifier \"\(identifier)\" is registered (\(list))\(hint)")
    }

    /// Runs the module's required loads, `init(context:)` and `moduleDidLoad`, with no lock held; the instance is
    /// given `context`, its own. Throws rather than returning a `Result`, whose type the runtime would build
    /// (checking that `ResolutionError` is an `Error`) on the first load.
    private func instantiate(_ registration: ModuleRegistration,
                             context: ModuleInstanceContext) throws(ResolutionError) -> any ModuleProtocol {
        let identifier = registration.identifier
        for requirement in registration.requiredModules {
            do {
                _ = try load(requirement)
            } catch where error.code == .resolutionCycle {
                throw error
            } catch {
                throw ResolutionError(
                    .loadFailed, "module \"\(identifier)\" requires \"\(requirement)\", which could not be loaded", underlyingError: error)
            }
        }
        guard owner.context != nil else {
            throw ResolutionError(.managerUnavailable, "the ModuleManager that registered \"\(identifier)\" no longer exists")
        }
        let module: any ModuleProtocol
        do {
            module = try registration.type.init(context: context)
            try module.moduleDidLoad(with: context)
        } catch let error as ResolutionError where error.code == .resolutionCycle {
            throw error
        } catch {
            throw ResolutionError(
                .loadFailed, "module \"\(identifier)\" (\(registration.typeName)) failed to load", underlyingError: error)
        }
        // Still `.loading`, so nobody resolves the module before it was told the active session.
        sessions.attach(module)
        return module
    }

    /// Loads every eager module in registration order; returns the failures.
    func loadEagerModules() -> [ResolutionError] {
        let eager = locked { table.ordered.filter(\.eager).map(\.identifier) }
        var failures: [ResolutionError] = []
        for identifier in eager {
            do { _ = try module(identifier) } catch { failures.append(error) }
        }
        return failures
    }
}
