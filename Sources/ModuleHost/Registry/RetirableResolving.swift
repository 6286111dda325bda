import Synchronization

/// The resolution behind a module instance's own bridge: the registry's, refused once the instance is released.
///
/// Every resolve through it is checked: a released instance never gets a module or service, not even one cached
/// before it was released.
///
/// The registry is held weakly. The registry keeps each loaded instance's context, and an instance may keep its
/// context's bridge, so a strong reference would keep a dropped manager's registry, and every module it loaded,
/// alive for good. Once the registry is gone, a resolve throws `ResolutionError.Code.managerUnavailable`.
///
/// A class, and the one place the instance's released flag is kept (its context reads it here): the bridge holds
/// one reference, where a value holding the weak reference copied it, an atomic operation, with every copy.
final class RetirableResolving: ModuleResolving, Sendable {
    /// The module whose instance this resolution serves.
    let module: ModuleIdentifier
    private weak let base: ModuleRegistry?
    private let retired = Atomic<Bool>(false)

    init(module: ModuleIdentifier, base: ModuleRegistry) {
        self.module = module
        self.base = base
    }

    /// Whether the instance was released.
    var isRetired: Bool { retired.load(ordering: .acquiring) }

    /// Marks the instance released: from now on every resolve through it throws.
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

    func module(_ identifier: ModuleIdentifier) throws(ResolutionError) -> any ModuleProtocol {
        try registry().module(identifier)
    }

    func service<Service: Sendable>(_ type: Service.Type) throws(ResolutionError) -> Service {
        try registry().service(type)
    }

    func provides(_ key: ObjectIdentifier) -> Bool {
        base?.provides(key) ?? false
    }

    func serviceDescriptions() -> [ModuleBridge.ServiceDescription] {
        base?.serviceDescriptions() ?? []
    }

    /// The registry, while the instance is not released and the registry exists.
    private func registry() throws(ResolutionError) -> ModuleRegistry {
        try check()
        guard let base else { throw managerGone }
        return base
    }
}
