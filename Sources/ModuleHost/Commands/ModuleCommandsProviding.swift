/// A module that adds commands to a host's command line (such as `app-shell`'s prompt and one-shot use), so a
/// module, even a plugin, is usable without changing the host's code.
///
/// Commands are declared statically, like startup operations, so a host can list them (`help`) and a manifest
/// can be validated without instantiating anything; the module is instantiated when one of its commands first
/// runs. Two modules declaring the same name, a name the host keeps for itself
/// (the `reservedCommandNames` of ``ModuleManager/init(typeResolver:maxConcurrentOperations:reservedCommandNames:)``), or a name that is not one word of ASCII letters, digits, `-`, `_`
/// and `.` (starting with a letter or digit, at most 64 characters), is a validation error that names the
/// modules involved.
///
/// ```swift
/// extension ClockModule: ModuleCommandsProviding {
///     static let commands: [ModuleCommand] = [
///         ModuleCommand("uptime", summary: "how long the app has run") { context in
///             let clock = try context.manager.bridge.resolve(ClockService.self)
///             return .text("up \(clock.uptime())")
///         },
///     ]
/// }
/// ```
public protocol ModuleCommandsProviding: ModuleProtocol {
    /// The commands the module adds.
    static var commands: [ModuleCommand] { get }
}

extension ModuleCommandsProviding {
    /// ``commands``, for the host.
    public static var _declaredCommands: [ModuleCommand] { commands }
}

/// Reads the commands a module type declares without instantiating it.
enum ModuleCommandDeclarations {
    static func commands(of type: any ModuleProtocol.Type) -> [ModuleCommand] {
        type._declaredCommands
    }
}
