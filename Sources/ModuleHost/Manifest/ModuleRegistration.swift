/// A validated module: what validation hands the registry about one module before it is instantiated.
///
/// Immutable, and a class: the registry's tables and the startup code pass registrations around, and copying a
/// reference is one retain where copying a dozen fields was a dozen.
final class ModuleRegistration: Sendable {
    let identifier: ModuleIdentifier
    let type: any ModuleProtocol.Type
    /// The type's name as written (manifest) or as Swift prints it (code).
    let typeName: String
    let eager: Bool
    /// The decoded configuration, for ``ConfigurableModule`` types.
    let configuration: (any Sendable)?
    let startup: StartupOverrides
    /// Where the module was declared: `modules.json: modules[2]`, or `code`.
    let origin: String
    let requiredModules: [ModuleIdentifier]
    let providedServices: [ProvidedService]
    /// What the module adds to extension points, read once from its type.
    let contributions: [Contribution]
    /// The module's enabled routes, with the manifest's overrides applied.
    let routes: [RegisteredRoute]

    init(type: any ModuleProtocol.Type, typeName: String, eager: Bool, configuration: (any Sendable)?,
         contributions: [Contribution], startup: StartupOverrides, origin: String, routeOverrides: [String: RouteOverride] = [:]) {
        self.identifier = type.moduleIdentifier
        self.type = type
        self.typeName = typeName
        self.eager = eager
        self.configuration = configuration
        self.startup = startup
        self.origin = origin
        self.requiredModules = type.requiredModules
        self.providedServices = type.providedServices
        self.contributions = contributions
        self.routes = RegisteredRoute.routes(Contribution.values(of: contributions, for: ModuleRoute.point),
                                             of: type, typeName: typeName, overrides: routeOverrides)
    }
}
