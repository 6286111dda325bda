/// What a manager already holds, so that validating a second manifest (or a module registered in code) finds
/// clashes with the first. The registry makes one; validation only reads it.
struct RegisteredModules {
    /// Identifiers already taken, each with its owner.
    var identifiers: [ModuleIdentifier: ModuleOwner] = [:]
    /// Services already provided, by the identity of their type, each with the module that provides it.
    var services: [ObjectIdentifier: ModuleIdentifier] = [:]
    /// Type names already registered, offered as "did you mean" suggestions.
    var typeNames: [String] = []
    /// Command names already declared, each with its owner.
    var commands: [String: ModuleOwner] = [:]
    /// The registrations, in order: what a library's ``ContributionCheck`` checks new contributions against.
    var registrations: [ModuleRegistration] = []
    /// The extension points declared, by name: the library's own and the host's.
    var extensionPoints: [String: ExtensionPointDeclaration] = Contribution.builtInPoints
    /// Keys already contributed to the host's points that require unique keys (and command names), by point, each
    /// with its owner.
    var contributionKeys: [String: [String: String]] = [:]
    /// The routing settings already in force, with the manifest that named them.
    var routing: (settings: RoutingSettings, origin: String)?
}
