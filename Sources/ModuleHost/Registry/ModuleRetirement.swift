import Synchronization

/// Whether a module instance was released: set once, read by its context and its bridge.
final class ModuleRetirement: Sendable {
    let module: ModuleIdentifier
    private let retired = Atomic<Bool>(false)

    init(module: ModuleIdentifier) {
        self.module = module
    }

    var isRetired: Bool { retired.load(ordering: .acquiring) }

    func retire() { retired.store(true, ordering: .releasing) }

    /// What the instance's context and bridge throw once the manager that loaded it is gone.
    var managerGone: ResolutionError {
        ResolutionError(.managerUnavailable, "the ModuleManager that loaded \"\(module)\" no longer exists")
    }

    /// Throws `moduleReleased` once the instance was released.
    func check() throws(ResolutionError) {
        guard isRetired else { return }
        throw ResolutionError(.moduleReleased, "this instance of \"\(module)\" was released; what the host gave it "
                              + "refuses to work, so resolve the module again to reach the loaded instance")
    }
}
