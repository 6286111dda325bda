/// The library's own extension points: commands and startup operations are contributions like any other, read by
/// one code path (routes are ModuleHostRouting's point, declared the same way with its own check).
extension ModuleCommand {
    /// The point modules contribute commands to; a command's key is its name, unique in a host. Package-only: a
    /// module contributes with ``Contribution/command(_:)`` (whose key is the command's name, so it cannot be wrong)
    /// and a host lists them with ``ModuleManager/moduleCommands()``.
    package static let point = ExtensionPoint<ModuleCommand>("modulehost.commands", requiresUniqueKeys: true)
}

extension ModuleStartupOperation {
    /// The point modules contribute startup operations to; an operation's key is its identifier, unique in a host. A
    /// module contributes with ``Contribution/startupOperation(_:)``; a host lists what modules declared with
    /// ``ModuleManager/extensions(of:)``.
    public static let point = ExtensionPoint<ModuleStartupOperation>("modulehost.startup-operations",
                                                                     requiresUniqueKeys: true)
}

extension Contribution {
    /// Contributes a command to the library's commands point, keyed by its name: the one way to declare a command.
    ///
    /// - Parameter command: The command.
    /// - Returns: The contribution, for the module's ``ModuleProtocol/contributions``.
    public static func command(_ command: ModuleCommand) -> Contribution {
        Contribution(to: ModuleCommand.point, command, key: command.name)
    }

    /// Contributes a startup operation to ``ModuleStartupOperation/point``, keyed by its identifier.
    ///
    /// - Parameter operation: The startup operation.
    /// - Returns: The contribution, for the module's ``ModuleProtocol/contributions``.
    public static func startupOperation(_ operation: ModuleStartupOperation) -> Contribution {
        Contribution(to: ModuleStartupOperation.point, operation, key: operation.identifier)
    }

    /// The points every host has, by name.
    static let builtInPoints: [String: ExtensionPointDeclaration] = Dictionary(uniqueKeysWithValues: [
        ModuleCommand.point.declaration, ModuleStartupOperation.point.declaration,
    ].map { point in
        var point = point
        point.isBuiltIn = true
        return (point.name, point)
    })

    /// The values among `contributions` for `point`, in order; reading them instantiates nothing. The library's
    /// own points read their contributions with this.
    package static func values<Value>(of contributions: [Contribution], for point: ExtensionPoint<Value>) -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(contributions.count)  // a module's contributions mostly go to one point
        for contribution in contributions where contribution.pointName == point.name {
            contribution.withValue(as: Value.self) { values.append($0) }
        }
        return values
    }
}
