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
    /// Where the module was declared, in parts.
    private let declaredAt: Origin
    let requiredModules: [ModuleIdentifier]
    let providedServices: [ProvidedService]
    /// What the module adds to extension points, read once from its type.
    package let contributions: [Contribution]
    /// The manifest's per-route overrides for the module, keyed by route identifier.
    package let routeOverrides: [String: RouteOverride]

    /// The registration of `resolved`, with the declarations validation read from its type and checked.
    init(_ resolved: ManifestValidator.ResolvedEntry, typeName: String, eager: Bool, configuration: (any Sendable)?,
         startup: StartupOverrides, origin: Origin, routeOverrides: [String: RouteOverride] = [:]) {
        self.identifier = resolved.identifier
        self.type = resolved.type
        self.typeName = typeName
        self.eager = eager
        self.configuration = configuration
        self.startup = startup
        self.declaredAt = origin
        self.requiredModules = resolved.requiredModules
        self.providedServices = resolved.providedServices
        self.contributions = resolved.contributions
        self.routeOverrides = routeOverrides
    }

    /// Where the module was declared: `modules.json: modules[2]`, `modules.json: modules[2] (plugin libX.so)`, or
    /// `code`. Made when asked (for messages and listings), not for every module registered.
    package var origin: String { declaredAt.description }

    /// Where a module was declared.
    enum Origin: CustomStringConvertible {
        /// A manifest's entry: the manifest's file (`nil` for one read from memory), the entry's path, and the
        /// plugin library its type comes from, if any.
        case manifest(file: String?, path: String, library: String?)
        /// Registered in code (`registerModule`).
        case code

        var description: String {
            switch self {
            case .manifest(let file, let path, let library):
                "\(file ?? "manifest"): \(path)" + (library.map { " (plugin \($0))" } ?? "")
            case .code: "code"
            }
        }
    }
}
