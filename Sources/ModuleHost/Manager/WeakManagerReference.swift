/// A weak, thread-safe reference to a manager, so objects the manager owns can reach it without a cycle.
final class WeakManagerReference: Sendable {
    private struct Box: @unchecked Sendable {
        weak var manager: ModuleManager?
    }

    private let box = Locked(Box())

    func set(_ manager: ModuleManager) {
        box.withLock { $0.manager = manager }
    }

    var manager: ModuleManager? {
        box.withLock { $0.manager }
    }
}
