/// Where each module is in its life, which thread is loading what, and who waits for whom: the state machine
/// the registry's condition guards. Pure data: every method is called with that condition held.
///
/// A module is known by its position in the registration table (whose rows are only added), so a load finds its
/// state in an array, where looking it up by identifier hashed the identifier at every step.
struct LoadingGraph {
    /// Each registered module, by its position in the registration table.
    private var modules: [Slot] = []
    /// The positions of the loaded modules, in the order they finished loading.
    private(set) var loadOrder: [Int] = []
    /// The threads loading or waiting for a module: few at any time, so a list, searched in full.
    private var threads: [ThreadLoads] = []
    /// An empty stack with room, kept from the last thread that finished loading for the next one that starts.
    private var spareStack: [Int] = []

    /// One registered module: its identifier and where it is in its life.
    private struct Slot {
        let identifier: ModuleIdentifier
        var state: LoadState
    }

    /// What one thread is doing: the positions of the modules it is loading, outermost first, and the one it waits
    /// for.
    private struct ThreadLoads {
        let thread: ThreadIdentity
        var stack: [Int] = []
        var waitingFor: Int?
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

    /// Adds modules just registered, `.registered`, at the next positions, in the table's order.
    mutating func add(_ identifiers: some Collection<ModuleIdentifier>) {
        modules.reserveCapacity(modules.count + identifiers.count)
        for identifier in identifiers { modules.append(Slot(identifier: identifier, state: .registered)) }
    }

    /// The state of the module at `position`.
    func state(at position: Int) -> LoadState {
        modules[position].state
    }

    /// The loaded instance of the module at `position`, if it is loaded.
    func loadedModule(at position: Int) -> (any ModuleProtocol)? {
        if case .loaded(let module, _) = modules[position].state { return module }
        return nil
    }

    /// The state of the module at `position` as it was; when it was `.registered`, `thread` now loads it (the
    /// caller goes on to load it).
    mutating func claim(_ position: Int, by thread: ThreadIdentity) -> LoadState {
        let before = modules[position].state
        if case .registered = before {
            modules[position].state = .loading(by: thread)
            update(thread) { $0.stack.append(position) }
        }
        return before
    }

    /// Records that `thread`'s innermost load, of the module at `position`, made `module`, which was given `context`.
    mutating func finishLoading(_ position: Int, by thread: ThreadIdentity, loading module: any ModuleProtocol,
                                context: ModuleInstanceContext) {
        update(thread) { _ = $0.stack.popLast() }
        modules[position].state = .loaded(module, context: context)
        loadOrder.append(position)
    }

    /// Records that `thread`'s innermost load, of the module at `position`, failed with `error`.
    mutating func finishLoading(_ position: Int, by thread: ThreadIdentity, failingWith error: ResolutionError) {
        update(thread) { _ = $0.stack.popLast() }
        modules[position].state = .failed(error)
    }

    /// Records that `thread` waits for the module at `position` (or no longer waits, for `nil`).
    mutating func setWaiting(_ thread: ThreadIdentity, for position: Int?) {
        update(thread) { $0.waitingFor = position }
    }

    /// The first module, in registration order, that `isIncluded` accepts and some thread is loading: its position,
    /// with that thread.
    func firstLoading(where isIncluded: (ModuleIdentifier) -> Bool) -> (position: Int, loader: ThreadIdentity)? {
        for (position, module) in modules.enumerated() {
            if case .loading(let loader) = module.state, isIncluded(module.identifier) { return (position, loader) }
        }
        return nil
    }

    /// The identifier of the module at `position`.
    func identifier(at position: Int) -> ModuleIdentifier {
        modules[position].identifier
    }

    /// The modules `thread` is loading right now.
    func modulesLoaded(by thread: ThreadIdentity) -> [ModuleIdentifier] {
        (loads(of: thread)?.stack ?? []).map { modules[$0].identifier }
    }

    /// If `me` waiting for `owner` to finish loading the module at `wanted` would never end, the cycle of modules
    /// involved.
    func waitCycle(of me: ThreadIdentity, wanting wanted: Int, owner: ThreadIdentity) -> [ModuleIdentifier]? {
        var path: [Int] = []
        var target = wanted
        var thread = owner
        var visited: Set<ThreadIdentity> = []
        while visited.insert(thread).inserted {
            // The part of `thread`'s loading chain from `target` on.
            let stack = loads(of: thread)?.stack ?? []
            path.append(contentsOf: stack.firstIndex(of: target).map { Array(stack[$0...]) } ?? [target])
            if thread == me {
                return (path + [wanted]).map { modules[$0].identifier }
            }
            guard let next = loads(of: thread)?.waitingFor, case .loading(let nextOwner) = modules[next].state else {
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
        for position in loadOrder.reversed() where identifiers.contains(modules[position].identifier) {
            if case .loaded(let module, let context) = modules[position].state {
                released.append(UnloadedModule(identifier: modules[position].identifier, module: module, context: context))
            }
        }
        for position in modules.indices where identifiers.contains(modules[position].identifier) {
            switch modules[position].state {
            case .loaded, .failed: modules[position].state = .registered
            case .registered, .loading: break
            }
        }
        loadOrder.removeAll { identifiers.contains(modules[$0].identifier) }
        return released
    }

    /// Every module that is loaded or failed.
    var settledModules: Set<ModuleIdentifier> {
        Set(modules.compactMap { module in
            switch module.state {
            case .loaded, .failed: module.identifier
            case .registered, .loading: nil
            }
        })
    }
}
