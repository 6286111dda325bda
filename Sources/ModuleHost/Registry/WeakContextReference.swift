/// A weak, thread-safe reference to the context (the manager) handed to modules; weak, because the manager
/// owns what holds it.
package final class WeakContextReference: Sendable {
    private struct Box: Sendable {
        weak var context: (any ModuleContext)?
    }

    private let box = Locked(Box())

    /// Points the reference at `context`.
    func set(_ context: any ModuleContext) {
        box.withLock { $0.context = context }
    }

    /// The context, while it exists.
    package var context: (any ModuleContext)? {
        box.withLock { $0.context }
    }
}
