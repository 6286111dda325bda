#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `app-shell` executable: hosts the modules listed in a manifest.
@main
enum AppShellMain {
    static func main() async {
        // Write errors on a closed pipe are handled where they happen, instead of killing the process.
        signal(SIGPIPE, SIG_IGN)
        let code = await AppShell(console: .standard()).run(Array(CommandLine.arguments.dropFirst()))
        // Every way out passes here: echo is on when the shell ends, whatever path it took.
        ShellEvents.restoreTerminal()
        if HostRuntime.manifestReaders.withLock({ $0 }) > 0 { _exit(code.rawValue) }
        exit(code.rawValue)
    }
}

/// Dispatches the command line to a subcommand and turns every outcome into a documented exit status.
struct AppShell {
    let console: Console

    func run(_ arguments: [String]) async -> ExitCode {
        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments)
        } catch {
            console.error(error.message)
            console.diagnostic("Usage: " + HelpText.usage(of: error.subcommand))
            console.diagnostic("Run 'app-shell \(error.subcommand.map { "help \($0)" } ?? "--help")' for usage.")
            return .usage
        }
        do {
            switch invocation.command {
            case .help(let topic):
                return help(topic, invocation)
            case .completionScript(let shell):
                let names = (HostRuntime.moduleCommandsQuietly(invocation) ?? []).map(\.command.name)
                console.outPartial(CompletionScript(moduleCommands: names).script(for: shell))
                return .ok
            case .version:
                if invocation.json {
                    console.json("version", ["version": Invocation.version])
                    return .ok
                }
                console.out("app-shell \(Invocation.version)")
                return .ok
            case .validate:
                return try await validate(invocation)
            case .modules:
                let runtime = try await loadStartingNothing(invocation)
                Listings(console: console, json: invocation.json).modules(runtime.manager.modules)
                return .ok
            case .graph(let format):
                let runtime = try await loadStartingNothing(invocation)
                let plan = try runtime.plan()
                if invocation.json {
                    console.json("graph", plan.graphNodes)
                } else {
                    console.out(format == .dot ? plan.dotGraph() : plan.mermaidGraph())
                }
                return .ok
            case .routes:
                let runtime = try await loadStartingNothing(invocation)
                Listings(console: console, json: invocation.json).routes(runtime.manager.router)
                return .ok
            case .open(let url):
                // The way another program hands the app a link: only routes marked external open.
                return try await oneShot(invocation) { commands, _ in await commands.open([url], from: .external) }
            case .moduleCommand(let name, let arguments):
                return try await runOnce(name, arguments, invocation)
            case .run:
                return try await serve(invocation)
            }
        } catch {
            return error.code
        }
    }

    /// `app-shell validate`: every manifest and startup-plan problem, exit 65 (or 66) if any is an error.
    private func validate(_ invocation: Invocation) async throws(HostRuntime.Stop) -> ExitCode {
        // Plugins are checked by reading their files; validation runs none of their code.
        let runtime = try await loadStartingNothing(invocation, loadingPlugins: false)
        let plan = try runtime.plan()
        let modules = runtime.manager.modules.count
        if runtime.diagnosticOutput == .validationDocument {
            runtime.printVerdict([], plan: plan)
            return .ok
        }
        console.out("\(runtime.manifestURL.path): valid (\(modules) module\(modules == 1 ? "" : "s"), \(plan.operationCount) startup operation\(plan.operationCount == 1 ? "" : "s"))")
        return .ok
    }

    /// Reads the manifest for a subcommand that starts no module (`validate`, `modules`, `graph`): a signal while
    /// it reads or later ends the program at once with 130 or 143, as there is nothing to shut down.
    private func loadStartingNothing(_ invocation: Invocation, loadingPlugins: Bool = true) async throws(HostRuntime.Stop) -> HostRuntime {
        let events = ShellEvents(inputIsTerminal: false)
        let runtime = try await HostRuntime.load(invocation, console: console, events: events, loadingPlugins: loadingPlugins)
        events.setSignalHandler { number in
            ShellEvents.restoreTerminal()
            _exit(StartupRunner.exitCode(for: number).rawValue)
        }
        return runtime
    }

    /// `app-shell <command> [arguments]`: start quietly, run one module command, shut down with its status.
    private func runOnce(_ name: String, _ arguments: [String], _ invocation: Invocation) async throws(HostRuntime.Stop) -> ExitCode {
        try await oneShot(invocation, precheck: { runtime in
            guard !runtime.manager.moduleCommands().contains(where: { $0.command.name == name }) else { return nil }
            let names = Invocation.subcommands.sorted() + runtime.manager.moduleCommands().map(\.command.name)
            let hint = Suggestions.closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
            console.error("unknown subcommand \(DisplayText.quoted(name, with: "'"))\(hint); no module in \(runtime.manifestURL.lastPathComponent) declares a command of that name")
            console.diagnostic("Run 'app-shell --help' for usage.")
            return .usage
        }) { commands, io in
            await commands.runModuleCommand(name, arguments, io: io)
        }
    }

    /// Starts quietly, runs `action` once, and shuts down with its status; `precheck` may end it first with a
    /// status of its own (before anything starts).
    private func oneShot(_ invocation: Invocation, precheck: (HostRuntime) -> ExitCode? = { _ in nil },
                         action: @escaping @Sendable (ShellCommands, ShellIO) async -> ExitCode) async throws(HostRuntime.Stop) -> ExitCode {
        // Catch signals first, so Ctrl-C at any point shuts down in order.
        let events = ShellEvents(inputIsTerminal: console.inputIsTerminal)
        var quiet = invocation
        quiet.quiet = true
        let runtime = try await HostRuntime.load(quiet, console: console, events: events)
        if let code = precheck(runtime) { return code }
        let shutdown = Shutdown(runtime: runtime, tracePath: invocation.tracePath, verbose: invocation.verbose, events: events)
        let outcome = await StartupRunner(runtime: runtime, events: events, invocation: quiet).run(showReport: false)
        if case .stopped(let code) = outcome {
            return await shutdown.perform(code, cancelRemaining: true)
        }
        let io = ShellIO(input: ShellInput(events: events), console: console)
        let commands = ShellCommands(runtime: runtime, invocation: invocation)
        let race = await SignalRace.run(events) { await action(commands, io) }
        let status: ExitCode
        switch (race, io.interruption) {
        case (.signal(let number), _), (_, .signal(let number)?):
            return await shutdown.perform(StartupRunner.exitCode(for: number), cancelRemaining: true)
        case (.finished(let code), _):
            status = code
        }
        if status == .usage { console.diagnostic("Run 'app-shell --help' for usage.") }
        // The later phases were never released (no prompt follows), so they are cancelled, not waited for.
        return await shutdown.perform(status, cancelRemaining: true)
    }

    /// `--help`, `help <subcommand>`, `<subcommand> --help`: the help wrapped to the output's width, with the
    /// commands the manifest's modules declare when it can be read.
    private func help(_ topic: String?, _ invocation: Invocation) -> ExitCode {
        let help = HelpText(width: TerminalWidth.current(), moduleCommands: HostRuntime.moduleCommandsQuietly(invocation) ?? [])
        if invocation.json, topic == nil {
            console.json("help", help.entries())
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

    /// The default: start the modules, serve commands, shut down in order.
    private func serve(_ invocation: Invocation) async throws(HostRuntime.Stop) -> ExitCode {
        // Catch signals first, so Ctrl-C at any point shuts down in order.
        let events = ShellEvents(inputIsTerminal: console.inputIsTerminal)
        let runtime = try await HostRuntime.load(invocation, console: console, events: events)
        let outcome = await StartupRunner(runtime: runtime, events: events, invocation: invocation).run(showReport: !invocation.quiet)
        let shutdown = Shutdown(runtime: runtime, tracePath: invocation.tracePath, verbose: invocation.verbose, events: events)
        switch outcome {
        case .stopped(let code):
            return await shutdown.perform(code, cancelRemaining: true)
        case .started:
            runtime.manager.initiator.hostDidBecomeReady()
            let (ending, status) = await CommandLoop(runtime: runtime, events: events, invocation: invocation).run()
            switch ending {
            case .signal(let number):
                return await shutdown.perform(StartupRunner.exitCode(for: number), cancelRemaining: true)
            case .quit, .endOfInput:
                return await shutdown.perform(status)
            }
        }
    }
}
