extension ModuleRegistry {
    /// Releases `identifier` and every loaded module that requires it, directly or not: forgets them (so the
    /// next resolve creates fresh instances), then calls `moduleWillUnload` in reverse load order and retires each
    /// instance's context (see ``ModuleInstanceContext``). Waits for
    /// any of them that another thread is loading; returns the identifiers released, in that order.
    func release(_ identifier: ModuleIdentifier) throws(ResolutionError) -> [ModuleIdentifier] {
        let me = ThreadIdentity.current
        condition.lock()
        guard table.position(of: identifier) != nil else {
            condition.unlock()
            throw ResolutionError(.unknownModule, "no module with identifier \"\(identifier)\" is registered, so none can be released")
        }
        var affected = table.modulesRequiring(identifier)
        while let (busy, loader) = graph.firstLoading(where: affected.contains) {
            if loader == me || graph.waitCycle(of: me, wanting: busy, owner: loader) != nil {
                condition.unlock()
                throw ResolutionError(
                    .releasedWhileLoading,
                    "cannot release \"\(identifier)\" while \"\(graph.identifier(at: busy))\" is being loaded by the thread that asked for the release")
            }
            wait(for: busy, by: me)
            affected = table.modulesRequiring(identifier)
        }
        let (released, retired) = forget(affected)
        condition.broadcast()
        condition.unlock()
        retired.dispose()
        return finishUnloading(released)
    }

    /// Forgets every loaded (and failed) module and stops session calls to them, but calls no hook: returns the
    /// modules in reverse load order, for an unloader that calls the hooks itself.
    ///
    /// A module is never unloaded while a module that requires it is loaded or loading: loads under way on
    /// other threads are waited for first, and when called from inside a load, the modules that the calling
    /// thread's loads require stay loaded.
    func detachAll() -> [UnloadedModule] {
        let me = ThreadIdentity.current
        condition.lock()
        var kept = table.requirements(of: graph.modulesLoaded(by: me))
        while let (busy, loader) = graph.firstLoading(where: { !kept.contains($0) }) {
            if loader == me || graph.waitCycle(of: me, wanting: busy, owner: loader) != nil {
                // Waiting would never end: keep that load and what it requires.
                kept.formUnion(table.requirements(of: [graph.identifier(at: busy)]))
                continue
            }
            wait(for: busy, by: me)
        }
        let (unloaded, retired) = forget(graph.settledModules.subtracting(kept))
        condition.broadcast()
        condition.unlock()
        retired.dispose()
        for unloaded in unloaded {
            sessions.detach(unloaded.module)
        }
        return unloaded
    }

    /// Waits, `condition` held, until the thread loading the module at `module` broadcasts.
    private func wait(for module: Int, by me: ThreadIdentity) {
        graph.setWaiting(me, for: module)
        condition.wait()
        graph.setWaiting(me, for: nil)
    }

    /// Forgets `identifiers`' instances and cached services; returns the loaded ones in reverse load order, and what
    /// the cache retired (for the caller to dispose of once it has unlocked). Must be called with `condition` held.
    private func forget(_ identifiers: Set<ModuleIdentifier>) -> ([UnloadedModule], RetiredResolutions) {
        let released = graph.forget(identifiers)
        let retired = cache.drop(modules: identifiers, services: identifiers.flatMap { table.serviceKeys(providedBy: $0) })
        return (released, retired)
    }

    /// Stops session calls to `modules`, then calls `moduleWillUnload` on each, in the given order, and retires its
    /// context once the hook has returned.
    private func finishUnloading(_ modules: [UnloadedModule]) -> [ModuleIdentifier] {
        for unloaded in modules {
            sessions.detach(unloaded.module)
        }
        for unloaded in modules {
            unloaded.module.moduleWillUnload()
            unloaded.retireContext()
        }
        return modules.map(\.identifier)
    }
}
