import ModuleHost
import ModuleHostRouting

/// The subcommands that start no module: `help`, `--version`, `--generate-completion-script`, `validate`,
/// `modules`, `graph` and `routes`. They run synchronously on the caller's thread; a signal ends them at any
/// moment with 130 or 143 (``Signals/Reaction/exit(message:)``), as there is nothing to shut down.
extension AppShell {
    /// Runs `body`, a signal ending the program at once; a stop gives its exit status.
    func startingNothing(_ body: () throws(HostRuntime.Stop) -> ExitCode) -> ExitCode {
        Signals.react(.exit(message: nil))
        do {
            return try body()
        } catch {
            return error.code
        }
    }

    /// `--help`, `help <subcommand>`, `<subcommand> --help`: the help wrapped to the output's width, with the
    /// commands the manifest's modules declare when it can be read.
    func help(_ topic: String?, _ invocation: Invocation) -> ExitCode {
        let help = HelpText(width: TerminalWidth.current(), moduleCommands: HostRuntime.moduleCommandsQuietly(invocation) ?? [])
        if invocation.json {
            let entries = help.entries().filter { topic == nil || $0.name == topic }
            guard !entries.isEmpty else {
                console.error("no subcommand or module command named \(DisplayText.quoted(topic ?? "", with: "'"))", exitStatus: .usage)
                return .usage
            }
            console.json("help", entries)
            return .ok
        }
        guard let topic else {
            console.out(help.general())
            return .ok
        }
        guard let text = help.subcommand(topic) else {
            console.error("no subcommand or module command named \(DisplayText.quoted(topic, with: "'"))")
            console.diagnostic("Run 'app-shell --help' for usage.")
            return .usage
        }
        console.out(text)
        return .ok
    }

    /// `--generate-completion-script <shell>`: the script, with the manifest's module commands when it can be read.
    func completionScript(for shell: CompletionScript.Shell, _ invocation: Invocation) -> ExitCode {
        let names = (HostRuntime.moduleCommandsQuietly(invocation) ?? []).map(\.command.name)
        let script = CompletionScript(moduleCommands: names).script(for: shell)
        // Under --json, one document like every other output: the script is its `script` field.
        if invocation.json {
            console.json("completionScript", ["shell": shell.rawValue, "script": script])
        } else {
            console.outPartial(script)
        }
        return .ok
    }

    /// `--version`.
    func version(_ invocation: Invocation) -> ExitCode {
        if invocation.json {
            console.json("version", ["version": Invocation.version])
        } else {
            console.out("app-shell \(Invocation.version)")
        }
        return .ok
    }

    /// `app-shell validate`: every manifest and startup-plan problem, exit 65 (or 66) if any is an error.
    func validate(_ invocation: Invocation) throws(HostRuntime.Stop) -> ExitCode {
        // Plugins are checked by reading their files; validation runs none of their code.
        let runtime = try loadStartingNothing(invocation, loadingPlugins: false)
        let plan = try runtime.plan()
        let modules = runtime.moduleCount
        if runtime.diagnosticOutput == .validationDocument {
            runtime.printVerdict([], plan: plan)
            return .ok
        }
        let operations = "\(plan.operationCount) startup operation\(plan.operationCount == 1 ? "" : "s")"
        let plugins = runtime.pluginModulesNotLoaded
        // A plugin's operations are known only once it loads, and validate loads none: say so rather than count 0.
        let uncounted = plugins == 0 ? "" : " besides those of \(plugins) plugin module\(plugins == 1 ? "" : "s"), counted when loaded"
        console.out("\(runtime.manifestPath): valid (\(modules) module\(modules == 1 ? "" : "s"), \(operations)\(uncounted))")
        return .ok
    }

    /// `app-shell modules`, `services` and `routes`: the manifest's modules, the services they provide, or the routes
    /// they offer (and the links' scheme and host), none of them loaded.
    func list(_ invocation: Invocation) throws(HostRuntime.Stop) -> ExitCode {
        let runtime = try loadStartingNothing(invocation)
        let listings = Listings(console: console)
        switch invocation.command {
        case .services: listings.services(runtime.manager)
        case .routes: listings.routes(runtime.manager.router)
        default: listings.modules(runtime.manager.modules)
        }
        return .ok
    }

    /// `app-shell graph`: the startup dependency graph, in `format` (or as JSON).
    func graph(_ format: Invocation.GraphFormat, _ invocation: Invocation) throws(HostRuntime.Stop) -> ExitCode {
        let runtime = try loadStartingNothing(invocation)
        let plan = try runtime.plan()
        if invocation.json {
            console.json("graph", plan.graphNodes)
        } else {
            console.out(format == .dot ? plan.dotGraph() : plan.mermaidGraph())
        }
        return .ok
    }

    /// Reads the manifest on this thread: a signal while it is read (or plugins are checked) ends the program at
    /// once with 130 or 143, saying so; a signal later ends it at once too, quietly.
    private func loadStartingNothing(_ invocation: Invocation, loadingPlugins: Bool = true) throws(HostRuntime.Stop) -> HostRuntime {
        Signals.react(.exit(message: console.errorLine(HostRuntime.interruptedWhileReading)))
        defer { Signals.react(.exit(message: nil)) }
        HostRuntime.announceReading(invocation, console: console)
        return try HostRuntime.load(invocation, console: console, loadingPlugins: loadingPlugins)
    }
}
