/// What a ``ModuleManager`` keeps: its registry, type resolver, initiator and attached parts, and the host's own
/// command names.
final class ModuleManagerStorage: ModuleManagerInternals {
    /// The registry behind the bridge.
    let registry: ModuleRegistry
    /// Finds module types by the names written in manifests.
    let typeResolver: ModuleTypeResolver
    /// The initiator and the parts libraries attach, made on first use.
    let parts: LazyManagerParts
    /// Command names the host keeps for its own commands.
    let reservedCommandNames: Set<String>

    init(registry: ModuleRegistry, typeResolver: ModuleTypeResolver, parts: LazyManagerParts, reservedCommandNames: Set<String>) {
        self.registry = registry
        self.typeResolver = typeResolver
        self.parts = parts
        self.reservedCommandNames = reservedCommandNames
    }
}
