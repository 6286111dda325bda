import ModuleHost
import ModuleHostRouting

/// The shell's own commands (`help`, `modules`, `services`, `startup`, `reload`), and every other command
/// handed to the module that declares it.
struct ShellCommands {
    let runtime: HostRuntime
    let invocation: Invocation

    /// The shell's own commands, with `quit`; no module may declare these names (nor the subcommands').
    static let builtIn: [(usage: String, summary: String)] = [
        ("help", "show this list"),
        ("modules", "the registered modules and their state"),
        ("services", "the services and the modules that provide them"),
        ("startup [--full]", "the startup report (--full: nothing cut to fit the width)"),
        ("reload <module>", "release a module (and the loaded modules that require it) and load it afresh"),
        ("routes", "the routes the modules offer"),
        ("open <url>", "open a link from inside the app: any route, and a path alone (/numbers/fact/28) will do"),
        ("quit", "shut down and exit"),
    ]

    /// Names a module command may not take: the prompt's own commands and the shell's subcommands.
    static let reservedNames = Set(builtInNames + ["?", "exit"] + Invocation.subcommands)

    /// The names of the shell's own commands, in `help` order.
    static let builtInNames = builtIn.map { String($0.usage.prefix { $0 != " " }) }

    var console: Console { runtime.console }
    var manager: ModuleManager { runtime.manager }

    /// Runs one command line (line `line` of a script, or typed at a terminal when `nil`); returns its exit
    /// status (`.ok` when it succeeded).
    func run(_ name: String, _ arguments: [String], io: ShellIO, line: Int? = nil) async -> ExitCode {
        switch name {
        case "help", "?": invocation.json ? printHelpJSON() : printHelp()
        case "modules": Listings(console: console).modules(manager.modules)
        case "services": Listings(console: console).services(manager)
        case "startup":
            guard arguments.isEmpty || arguments == ["--full"] else { return fail("usage: startup [--full]", .usage) }
            Listings(console: console).startupReport(manager.initiator.report, full: invocation.full || arguments == ["--full"])
        case "reload": return await reload(arguments)
        case "routes": Listings(console: console).routes(manager.router)
        case "open": return await open(arguments, from: .inApp)
        default: return await runModuleCommand(name, arguments, io: io, line: line)
        }
        return .ok
    }

    /// Runs a module's command and prints its output or its error; returns its exit status. A command whose
    /// task was cancelled (a signal is shutting the shell down) prints nothing more.
    func runModuleCommand(_ name: String, _ arguments: [String], io: any ModuleCommand.IO, line: Int? = nil) async -> ExitCode {
        let context = ModuleCommand.Context(arguments: arguments, manager: manager, io: io, wantsStructuredOutput: invocation.json)
        do {
            let output = try await manager.runCommand(name, context: context)
            return Task.isCancelled ? .failure : print(output, of: name)
        } catch {
            if Task.isCancelled { return .failure }
            guard error.code == .unknownCommand else {
                return fail(error.message, Self.exitCode(for: error.code))
            }
            reportUnknown(name, line: line)
            return .usage
        }
    }

    /// An unknown command, with the closest known one. The input is never repeated (it may be a password typed
    /// or scripted in the wrong place); in a script the line is named by its number.
    private func reportUnknown(_ name: String, line: Int?) {
        let names = Self.builtInNames + manager.moduleCommands().map(\.command.name)
        let hint = Suggestions.closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
        _ = fail("\(line.map { "line \($0): " } ?? "")unknown command\(hint)", .usage)
        if !invocation.json { printHelp() }
    }

    /// The documented status for each known reason a module command failed: misuse 64, refused 77, a failure 1.
    static let commandExitCodes: [ModuleCommandError.Code: ExitCode] = [
        .usage: .usage, .unknownCommand: .usage,
        .permissionDenied: .refused,
        .moduleUnavailable: .failure, .inputEnded: .failure, .failed: .failure,
    ]

    /// The status for `code`; a code added after this host was written is a failure (1).
    static func exitCode(for code: ModuleCommandError.Code) -> ExitCode {
        commandExitCodes[code] ?? .failure
    }

    /// Prints a command's output: under `--json` a `result` document with its value (or its text when it has
    /// none), else its text.
    private func print(_ output: ModuleCommand.Output, of name: String) -> ExitCode {
        if invocation.json {
            // A command without a structured value gives its text.
            console.json("result", CommandResult(command: name, value: output.value.map(EncodedValue.init(value:)), text: output.text))
        } else if !output.text.isEmpty {
            console.out(output.text)
        }
        return .ok
    }

    func printHelp() {
        let modules = HelpText.entries(of: manager.moduleCommands())
        let width = (Self.builtIn.map(\.usage.count) + modules.map(\.usage.count)).max() ?? 0
        console.out("Commands:")
        for (usage, summary) in Self.builtIn {
            console.out("  \(usage.padded(to: width))  \(summary)")
        }
        guard !modules.isEmpty else { return }
        console.out("Commands from modules:")
        modules.forEach { console.out("  \($0.usage.padded(to: width))  \($0.summary) [\($0.module?.rawValue ?? "")]") }
    }

    /// `help --json`: every command, with its usage, summary and (for a module's) the module.
    private func printHelpJSON() {
        let shell = zip(Self.builtInNames, Self.builtIn).map { HelpText.Entry(name: $0, usage: $1.usage, summary: $1.summary, module: nil) }
        console.json("help", shell + HelpText.entries(of: manager.moduleCommands()))
    }

    /// `reload <module>`: the module and those that require it, afresh, with their startup operations run again.
    private func reload(_ arguments: [String]) async -> ExitCode {
        guard arguments.count == 1, let name = arguments.first else {
            return fail("usage: reload <module>", .usage)
        }
        let identifier = ModuleIdentifier(rawValue: name)
        do {
            let (released, startup) = try await manager.reloadModule(identifier)
            for record in startup.operations where record.state != .succeeded {
                console.warning("reload \(identifier): \(record)")
            }
            let others = released.filter { $0 != identifier }
            let note = others.isEmpty ? "" : " (released too: \(others.map(\.rawValue).joined(separator: ", ")))"
            let text = "Reloaded \(identifier)\(note)."
            if invocation.json {
                console.json("result", CommandResult(command: "reload", value: EncodedValue(value: released.map(\.rawValue)), text: text))
            } else {
                // Identifiers come from the manifest: nothing in them may drive the terminal.
                console.out(DisplayText.printable(text))
            }
            return .ok
        } catch {
            return fail("reload \(identifier): \(error)", error.code == .unknownModule ? .usage : .failure)
        }
    }

    /// Reports a failed command (an `error` document under `--json`) and returns its status.
    func fail(_ message: String, _ code: ExitCode) -> ExitCode {
        console.error(message, exitStatus: code)
        return code
    }
}

/// A module command's output as a `--json` document: the command, its structured value (if any), and its text.
struct CommandResult: Encodable {
    let command: String
    let value: EncodedValue?
    let text: String
}
