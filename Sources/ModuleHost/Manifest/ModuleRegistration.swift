/// A validated module: what validation hands the registry about one module before it is instantiated.
///
/// Immutable, and a class: the registry's tables and the startup code pass registrations around, and copying a
/// reference is one retain where copying a dozen fields was a dozen.
package final class ModuleRegistration: Sendable {
    package let identifier: ModuleIdentifier
    package let type: any ModuleProtocol.Type
    /// The type's name as written (manifest) or as Swift prints it (code).
    package let typeName: String
    let eager: Bool
    /// The decoded configuration, for ``ConfigurableModule`` types.
    let configuration: (any Sendable)?
    let startup: StartupOverrides
    /// Where the module was declared: `modules.json: modules[2]`, or `code`.
    package let origin: String
    let requiredModules: [ModuleIdentifier]
    let providedServices: [ProvidedService]
    /// What the module adds to extension points, read once from its type.
    package let contributions: [Contribution]
    /// The manifest's per-route overrides for the module, keyed by route identifier.
    package let routeOverrides: [String: RouteOverride]

    /// The registration of `resolved`, with the declarations validation read from its type and checked.
    init(_ resolved: ManifestValidator.ResolvedEntry, typeName: String, eager: Bool, configuration: (any Sendable)?,
         startup: StartupOverrides, origin: String, routeOverrides: [String: RouteOverride] = [:]) {
        self.identifier = resolved.identifier
        self.type = resolved.type
        self.typeName = typeName
        self.eager = eager
        self.configuration = configuration
        self.startup = startup
        self.origin = origin
        self.requiredModules = resolved.requiredModules
        self.providedServices = resolved.providedServices
        self.contributions = resolved.contributions
        self.routeOverrides = routeOverrides
    }
}
