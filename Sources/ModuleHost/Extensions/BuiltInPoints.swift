/// The library's own extension points: commands, routes and startup operations are contributions like any other,
/// read by one code path.
extension ModuleCommand {
    /// The point modules contribute commands to; a command's key is its name, unique in a host.
    public static let point = ExtensionPoint<ModuleCommand>("modulehost.commands", requiresUniqueKeys: true)
}

extension ModuleRoute {
    /// The point modules contribute routes to; a route's key is its identifier, unique within its module.
    /// (Routes clash by pattern, which `validate` checks, not by key.)
    public static let point = ExtensionPoint<ModuleRoute>("modulehost.routes")
}

extension ModuleStartupOperation {
    /// The point modules contribute startup operations to; an operation's key is its identifier, unique in a host.
    public static let point = ExtensionPoint<ModuleStartupOperation>("modulehost.startup-operations",
                                                                     requiresUniqueKeys: true)
}

extension Contribution {
    /// Contributes a command to ``ModuleCommand/point``, keyed by its name.
    public static func command(_ command: ModuleCommand) -> Contribution {
        Contribution(to: ModuleCommand.point, command, key: command.name)
    }

    /// Contributes a route to ``ModuleRoute/point``, keyed by its identifier.
    public static func route(_ route: ModuleRoute) -> Contribution {
        Contribution(to: ModuleRoute.point, route, key: route.identifier)
    }

    /// Contributes a startup operation to ``ModuleStartupOperation/point``, keyed by its identifier.
    public static func startupOperation(_ operation: ModuleStartupOperation) -> Contribution {
        Contribution(to: ModuleStartupOperation.point, operation, key: operation.identifier)
    }

    /// The points every host has, by name.
    static let builtInPoints: [String: ExtensionPointDeclaration] = Dictionary(uniqueKeysWithValues: [
        ModuleCommand.point.declaration, ModuleRoute.point.declaration, ModuleStartupOperation.point.declaration,
    ].map { point in
        var point = point
        point.isBuiltIn = true
        return (point.name, point)
    })

    /// The values among `contributions` for `point`, in order; reading them instantiates nothing. The library's
    /// own points read their contributions with this.
    static func values<Value>(of contributions: [Contribution], for point: ExtensionPoint<Value>) -> [Value] {
        contributions.compactMap { $0.pointName == point.name ? $0.value(as: Value.self) : nil }
    }
}
