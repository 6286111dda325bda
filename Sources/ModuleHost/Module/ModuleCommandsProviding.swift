/// A module that adds commands to a host's command line (such as `app-shell`'s prompt), so a new module,
/// even a plugin, is usable without changing the host's code.
public protocol ModuleCommandsProviding: ModuleProtocol {
    /// The commands the module adds; names must not clash with the host's own commands.
    static var commands: [ModuleCommand] { get }
}

/// One command a module adds to the host's command line.
public struct ModuleCommand: Sendable {
    /// The word that invokes it, such as `greet`.
    public var name: String
    /// How to call it, such as `greet <name>`.
    public var usage: String
    /// One line on what it does.
    public var summary: String
    /// Runs it with the words after its name; returns the text to print, or throws an error to report.
    public var run: @Sendable (_ arguments: [String], _ manager: ModuleManager) async throws -> String

    /// Declares a command.
    public init(
        _ name: String, usage: String? = nil, summary: String,
        run: @escaping @Sendable (_ arguments: [String], _ manager: ModuleManager) async throws -> String
    ) {
        self.name = name
        self.usage = usage ?? name
        self.summary = summary
        self.run = run
    }
}

extension ModuleManager {
    /// The commands the registered modules add, in registration order, each with the module that adds it.
    public func moduleCommands() -> [(module: ModuleIdentifier, command: ModuleCommand)] {
        registry.orderedRegistrations().flatMap { registration in
            ((registration.type as? any ModuleCommandsProviding.Type)?.commands ?? []).map { (registration.identifier, $0) }
        }
    }
}
