/// Where each module is in its life, which thread is loading what, and who waits for whom: the state machine
/// the registry's condition guards. Pure data: every method is called with that condition held.
struct LoadingGraph {
    private var states: [ModuleIdentifier: LoadState] = [:]
    /// Loaded modules, in the order they finished loading.
    private(set) var loadOrder: [ModuleIdentifier] = []
    /// The threads loading or waiting for a module: few at any time, so a list, searched in full.
    private var threads: [ThreadLoads] = []
    /// An empty stack with room, kept from the last thread that finished loading for the next one that starts.
    private var spareStack: [ModuleIdentifier] = []

    /// What one thread is doing: the modules it is loading, outermost first, and the one it waits for.
    private struct ThreadLoads {
        let thread: ThreadIdentity
        var stack: [ModuleIdentifier] = []
        var waitingFor: ModuleIdentifier?
    }

    private func loads(of thread: ThreadIdentity) -> ThreadLoads? {
        threads.first { $0.thread == thread }
    }

    /// Changes what `thread` does, and forgets a thread that neither loads nor waits.
    private mutating func update(_ thread: ThreadIdentity, _ change: (inout ThreadLoads) -> Void) {
        guard let index = threads.firstIndex(where: { $0.thread == thread }) else {
            // A thread's first load takes the stack the last finished one left, not a new allocation.
            var loads = ThreadLoads(thread: thread, stack: spareStack)
            spareStack = []
            change(&loads)
            if !loads.stack.isEmpty || loads.waitingFor != nil { threads.append(loads) }
            return
        }
        change(&threads[index])
        if threads[index].stack.isEmpty, threads[index].waitingFor == nil {
            spareStack = threads.remove(at: index).stack
        }
    }

    /// The state of `identifier` (`.registered` until it first loads).
    func state(of identifier: ModuleIdentifier) -> LoadState {
        states[identifier] ?? .registered
    }

    /// The loaded instance of `identifier`, if it is loaded.
    func loadedModule(_ identifier: ModuleIdentifier) -> (any ModuleProtocol)? {
        if case .loaded(let module, _) = states[identifier] { return module }
        return nil
    }

    /// Makes room for the states of `count` modules in all.
    mutating func reserveCapacity(_ count: Int) {
        states.reserveCapacity(count)
    }

    /// The state of `identifier`, a registered module, as it was; when it was `.registered`, `thread` now loads it
    /// (the caller goes on to load it). One hash for the look and the claim.
    mutating func claim(_ identifier: ModuleIdentifier, by thread: ThreadIdentity) -> LoadState {
        func claim(_ state: inout LoadState) -> LoadState {
            let before = state
            if case .registered = before { state = .loading(by: thread) }
            return before
        }
        let before = claim(&states[identifier, default: .registered])
        if case .registered = before { update(thread) { $0.stack.append(identifier) } }
        return before
    }

    /// Records that `thread`'s innermost load, of `identifier`, made `module`, which was given `context`.
    mutating func finishLoading(_ identifier: ModuleIdentifier, by thread: ThreadIdentity, loading module: any ModuleProtocol,
                                context: ModuleInstanceContext) {
        update(thread) { _ = $0.stack.popLast() }
        states[identifier] = .loaded(module, context: context)
        loadOrder.append(identifier)
    }

    /// Records that `thread`'s innermost load, of `identifier`, failed with `error`.
    mutating func finishLoading(_ identifier: ModuleIdentifier, by thread: ThreadIdentity, failingWith error: ResolutionError) {
        update(thread) { _ = $0.stack.popLast() }
        states[identifier] = .failed(error)
    }

    /// Records that `thread` waits for `identifier` (or no longer waits, for `nil`).
    mutating func setWaiting(_ thread: ThreadIdentity, for identifier: ModuleIdentifier?) {
        update(thread) { $0.waitingFor = identifier }
    }

    /// The first of `identifiers` that some thread is loading, with that thread.
    func firstLoading(in identifiers: some Sequence<ModuleIdentifier>) -> (module: ModuleIdentifier, loader: ThreadIdentity)? {
        for identifier in identifiers {
            if case .loading(let loader) = states[identifier] { return (identifier, loader) }
        }
        return nil
    }

    /// The modules `thread` is loading right now.
    func modulesLoaded(by thread: ThreadIdentity) -> [ModuleIdentifier] {
        loads(of: thread)?.stack ?? []
    }

    /// If `me` waiting for `owner` to finish loading `wanted` would never end, the cycle of modules involved.
    func waitCycle(of me: ThreadIdentity, wanting wanted: ModuleIdentifier, owner: ThreadIdentity) -> [ModuleIdentifier]? {
        var path: [ModuleIdentifier] = []
        var target = wanted
        var thread = owner
        var visited: Set<ThreadIdentity> = []
        while visited.insert(thread).inserted {
            // The part of `thread`'s loading chain from `target` on.
            let stack = loads(of: thread)?.stack ?? []
            let tail = stack.firstIndex(of: target).map { Array(stack[$0...]) } ?? [target]
            path.append(contentsOf: tail)
            if thread == me {
                return path + [wanted]
            }
            guard let next = loads(of: thread)?.waitingFor, case .loading(let nextOwner) = states[next] else {
                return nil
            }
            target = next
            thread = nextOwner
        }
        return nil
    }

    /// Forgets the loaded and failed instances of `identifiers` (so the next resolve loads them afresh); returns
    /// the loaded ones, each with its context, in reverse load order, the order to unload them in.
    mutating func forget(_ identifiers: Set<ModuleIdentifier>) -> [UnloadedModule] {
        var released: [UnloadedModule] = []
        for identifier in loadOrder.reversed() where identifiers.contains(identifier) {
            if case .loaded(let module, let context) = states[identifier] {
                released.append(UnloadedModule(identifier: identifier, module: module, context: context))
            }
        }
        for identifier in identifiers {
            switch states[identifier] {
            case .loaded?, .failed?: states[identifier] = .registered
            default: break
            }
        }
        loadOrder.removeAll { identifiers.contains($0) }
        return released
    }

    /// Every module that is loaded or failed.
    var settledModules: Set<ModuleIdentifier> {
        Set(states.compactMap { identifier, state in
            switch state {
            case .loaded, .failed: identifier
            case .registered, .loading: nil
            }
        })
    }
}
