/// Reads the manifest, registers modules, and owns the ``ModuleBridge`` and ``Initiator`` built on them.
///
/// ```swift
/// let manager = ModuleManager()
/// try manager.registerModules(withConfigFilePath: URL(fileURLWithPath: "modules.json"))
/// let auth = try manager.bridge.resolve(AuthService.self)
/// ```
/// Managers share no state with each other, so tests can each make their own and run in parallel.
public final class ModuleManager: ModuleContext {
    // The class is declared with the module model, so that ``ModuleProtocol`` can name it in the seed's
    // `moduleDidLoad(with manager: ModuleManager)`; what it keeps from the layers above is opaque here.

    /// Resolves modules and services.
    public let bridge: ModuleBridge
    /// The registry, type resolver, initiator and attached parts, kept by the manager's own layer.
    let internals: any ModuleManagerInternals

    init(bridge: ModuleBridge, internals: any ModuleManagerInternals) {
        self.bridge = bridge
        self.internals = internals
    }
}

/// What a ``ModuleManager`` keeps from the layers above the module model, which this layer cannot name.
protocol ModuleManagerInternals: AnyObject, Sendable {}
