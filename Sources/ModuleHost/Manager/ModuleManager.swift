/// Reads the manifest, registers modules, and owns the ``ModuleBridge`` and ``Initiator`` built on them.
///
/// ```swift
/// let manager = ModuleManager()
/// try manager.registerModules(withConfigFilePath: URL(fileURLWithPath: "modules.json"))
/// let auth = try manager.bridge.resolve(AuthService.self)
/// ```
/// Managers share no state with each other, so tests can each make their own and run in parallel. Modules reach
/// the manager as the ``ModuleContext`` it adopts.
///
/// A manager that goes away frees the modules it loaded, even those that keep their context (a resolve through
/// that context then throws `ResolutionError.Code.managerUnavailable`), and cancels a startup it began that has
/// not finished. To tear the modules down in order, with their unload hooks, host them with
/// ``run(teardownTimeLimit:laterPhases:onTeardown:_:)``.
public final class ModuleManager: ModuleContext {
    /// Resolves modules and services.
    public let bridge: ModuleBridge
    /// The registry behind the bridge.
    package let registry: ModuleRegistry
    /// Finds module types by the names written in manifests.
    let typeResolver: ModuleTypeResolver
    /// The initiator and the parts libraries attach, made on first use.
    let parts: LazyManagerParts
    /// Command names the host keeps for its own commands; a module declaring one is a validation error.
    let reservedCommandNames: Set<String>

    init(registry: ModuleRegistry, typeResolver: ModuleTypeResolver, parts: LazyManagerParts,
         reservedCommandNames: Set<String>) {
        self.bridge = ModuleBridge(registry: registry)
        self.registry = registry
        self.typeResolver = typeResolver
        self.parts = parts
        self.reservedCommandNames = reservedCommandNames
    }
}
