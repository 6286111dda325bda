/// Module commands: what the registered modules declare, and running one.
extension ModuleManager {
    /// The commands the registered modules declare, in registration order, each with the module that declares
    /// it; read from the types, so no module is instantiated.
    ///
    /// - Returns: Each declared command with the module that declares it.
    public func moduleCommands() -> [(module: ModuleIdentifier, command: ModuleCommand)] {
        registry.orderedRegistrations().flatMap { registration in
            Contribution.values(of: registration.contributions, for: ModuleCommand.point).map { (registration.identifier, $0) }
        }
    }

    /// Runs the module command `name`: loads the module that declares it (the first time, this instantiates
    /// it), then runs the command with `context`.
    ///
    /// What the command prints cannot drive the terminal: in its output's text, its error's message and every line
    /// it writes through ``ModuleCommand/Context/io``, control and format characters other than line breaks and
    /// tabs (terminal escapes, bidirectional overrides) are written as `\u{…}`, so a module that repeats its
    /// input cannot forget to escape it.
    ///
    /// Throws a ``ModuleCommandError``: `ModuleCommandError.Code.unknownCommand` when no registered module
    /// declares `name`, `ModuleCommandError.Code.moduleUnavailable` when its module cannot be loaded, the
    /// command's own ``ModuleCommandError``, or `ModuleCommandError.Code.failed` for any other error it throws.
    ///
    /// - Parameters:
    ///   - name: The command's name, the word that invokes it.
    ///   - context: Its arguments, the manager and a way to talk to the user.
    /// - Returns: What the command returned, its text escaped.
    /// - Throws: ``ModuleCommandError``, as said above.
    public func runCommand(_ name: String, context: ModuleCommand.Context) async throws(ModuleCommandError) -> ModuleCommand.Output {
        do {
            let output = try await runUnescaped(name, context: context.printable())
            return ModuleCommand.Output(text: DisplayText.printableLines(output.text), value: output.value)
        } catch {
            throw ModuleCommandError(error.code, DisplayText.printableLines(error.message))
        }
    }

    private func runUnescaped(_ name: String, context: ModuleCommand.Context) async throws(ModuleCommandError) -> ModuleCommand.Output {
        guard let (module, command) = moduleCommands().first(where: { $0.command.name == name }) else {
            throw ModuleCommandError(.unknownCommand, "unknown command \(DisplayText.quoted(name, with: "'"))")
        }
        do {
            _ = try bridge.resolve(module)
        } catch {
            throw ModuleCommandError(.moduleUnavailable, "\(name): module \"\(module)\" is unavailable: \(error)")
        }
        do {
            return try await command.run(context)
        } catch let error as ModuleCommandError {
            throw error
        } catch let error as ResolutionError {
            throw ModuleCommandError(.moduleUnavailable, "\(name): \(error)")
        } catch {
            throw ModuleCommandError(.failed, "\(name): \(error)")
        }
    }
}
