#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// The context one module instance is given in `init(context:)` and `moduleDidLoad(with:)`: the manager's, for as
/// long as the instance is the loaded one.
///
/// Once the instance is released (``ModuleManager/releaseModule(_:)``, a reload, or `unloadAll`) and its unload
/// hooks have returned, the context is retired: every resolve through its ``bridge``, `configuration(for:)`,
/// `releaseModule(_:)` and the session calls throw `ResolutionError.Code.moduleReleased`, and ``session`` is `nil`.
/// Code that still holds the old instance then learns it is stale instead of working beside the new one.
final class ModuleInstanceContext: ModuleContext {
    /// The module whose instance holds this context.
    let module: ModuleIdentifier
    /// Resolves through the registry until the context is retired.
    let bridge: ModuleBridge
    private let manager: WeakContextReference
    /// The bridge's resolution, which keeps whether the instance was released.
    private let retirement: RetirableResolving

    init(module: ModuleIdentifier, registry: ModuleRegistry) {
        let retirement = RetirableResolving(module: module, base: registry)
        self.module = module
        self.manager = registry.owner
        self.retirement = retirement
        self.bridge = ModuleBridge(registry: retirement)
    }

    /// Whether the instance was released.
    var isRetired: Bool { retirement.isRetired }

    /// Retires the context; called once the instance's unload hooks have returned, or when it failed to load.
    func retire() { retirement.retire() }

    /// The manager, while the context is not retired and the manager exists.
    func liveManager() throws(ResolutionError) -> any ModuleContext {
        try retirement.check()
        guard let manager = manager.context else { throw retirement.managerGone }
        return manager
    }

    /// The manager that loaded the module, retired or not: for the seed's form, which is handed the manager itself.
    var loadingManager: (any ModuleContext)? { manager.context }

    func configuration<Module: ConfigurableModule>(for type: Module.Type) throws(ResolutionError) -> Module.Configuration {
        try liveManager().configuration(for: type)
    }

    var session: UserSession? {
        isRetired ? nil : loadingManager?.session
    }

    func beginUserSession(with userID: String, startedAt: Date) throws(ResolutionError) -> UserSession {
        try liveManager().beginUserSession(with: userID, startedAt: startedAt)
    }

    func endUserSession(with userID: String) throws(ResolutionError) -> UserSession? {
        try liveManager().endUserSession(with: userID)
    }

    func releaseModule(_ identifier: ModuleIdentifier) throws(ResolutionError) -> [ModuleIdentifier] {
        try liveManager().releaseModule(identifier)
    }
}

extension ModuleContext {
    /// The module whose instance was given this context; `nil` for the manager's own context.
    package var owningModule: ModuleIdentifier? {
        (self as? ModuleInstanceContext)?.module
    }

    /// Whether this is a module instance's context that was retired when the instance was released.
    package var isReleased: Bool {
        (self as? ModuleInstanceContext)?.isRetired ?? false
    }
}
