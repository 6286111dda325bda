/// The parts of a ``ModuleManager`` that listing or checking modules never needs, each made the first time it is
/// asked for (from any thread) and the same one after: the ``Initiator``, whose default width counts the active
/// processors, and the ``ModuleRouter``, with its event streams.
///
/// Not generic, and holding the parts as plain references, so that a manager that never asks for them makes no
/// type metadata for them either (the first use of a generic type can cost the runtime a search of every
/// conformance in the process).
final class LazyManagerParts: @unchecked Sendable {
    // `@unchecked`: `initiator` and `router` are only read and written with `lock` held.
    private let lock = Condition()
    private let makeInitiator: @Sendable () -> Initiator
    private let makeRouter: @Sendable () -> ModuleRouter
    private var madeInitiator: Initiator?
    private var madeRouter: ModuleRouter?

    init(initiator: @escaping @Sendable () -> Initiator, router: @escaping @Sendable () -> ModuleRouter) {
        makeInitiator = initiator
        makeRouter = router
    }

    var initiator: Initiator {
        lock.lock()
        defer { lock.unlock() }
        if let madeInitiator { return madeInitiator }
        let initiator = makeInitiator()
        madeInitiator = initiator
        return initiator
    }

    var router: ModuleRouter {
        lock.lock()
        defer { lock.unlock() }
        if let madeRouter { return madeRouter }
        let router = makeRouter()
        madeRouter = router
        return router
    }

    /// The router, if it has been made.
    var routerIfMade: ModuleRouter? {
        lock.lock()
        defer { lock.unlock() }
        return madeRouter
    }
}
