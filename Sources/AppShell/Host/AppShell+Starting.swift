import ModuleHost

/// The subcommands that start modules: `run` (the default), `open <url>` and a module command. They run on the
/// global executor (`@concurrent`), catch signals with ``ShellEvents`` from the start, and on a signal shut down
/// what was started, in order.
extension AppShell {
    /// `app-shell open <url>`: the way another program hands the app a link: only routes marked external open.
    @concurrent
    func open(_ url: String, _ invocation: Invocation) async -> ExitCode {
        await oneShot(invocation) { commands, _, _ in await commands.open([url], from: .external) }
    }

    /// `app-shell startup`: start quietly, let the later phases run too (nothing waits at a prompt), print the
    /// startup report as the prompt's `startup` does, and shut down; 70 when a required operation failed or timed
    /// out in any phase.
    @concurrent
    func startupReport(_ invocation: Invocation) async -> ExitCode {
        await oneShot(invocation, laterPhases: .beforeWork) { commands, io, report in
            let printed = await commands.run("startup", [], io: io)
            // A required operation of a later phase that failed or timed out fails the run, as at start.
            return report.isSuccessful ? printed : .startupFailed
        }
    }

    /// `app-shell <command> [arguments]`: start quietly, run one module command, shut down with its status.
    @concurrent
    func runOnce(_ name: String, _ arguments: [String], _ invocation: Invocation) async -> ExitCode {
        await oneShot(invocation, precheck: { runtime in
            guard !runtime.manager.moduleCommands().contains(where: { $0.command.name == name }) else { return nil }
            let names = Invocation.subcommands.sorted() + runtime.manager.moduleCommands().map(\.command.name)
            let hint = Suggestions.closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
            console.error("unknown subcommand \(DisplayText.quoted(name, with: "'"))\(hint); no module in \(runtime.manifestFileName) declares a command of that name")
            console.diagnostic("Run 'app-shell --help' for usage.")
            return .usage
        }) { commands, io, _ in
            await commands.runModuleCommand(name, arguments, io: io)
        }
    }

    /// Starts quietly (no progress, no report; notes show unless `-q`), runs `action` once, and shuts down with its
    /// status; `precheck` may end it first with a status of its own (before anything starts). The later phases are never released unless asked: nothing waits
    /// at a prompt.
    private func oneShot(_ invocation: Invocation, laterPhases: ModuleManager.LaterPhases = .never,
                         precheck: @escaping (HostRuntime) -> ExitCode? = { _ in nil },
                         action: @escaping @Sendable (ShellCommands, ShellIO, StartupReport) async -> ExitCode) async -> ExitCode {
        var quiet = invocation
        quiet.startsQuietly = true
        return await host(quiet, laterPhases: laterPhases, precheck: precheck) { runtime, events, report in
            let io = ShellIO(input: ShellInput(events: events), console: console)
            let commands = ShellCommands(runtime: runtime, invocation: invocation)
            let race = await CommandRace.run(signals: events.setCommandSignalHandler, interrupts: nil) { await action(commands, io, report) }
            switch (race, io.interruption) {
            case (.signal(let number), _), (_, .signal(let number)?): return Signals.exitCode(for: number)
            case (.finished(let code), _):
                if code == .usage { console.diagnostic("Run 'app-shell --help' for usage.") }
                return code
            case (.interrupted, _): return .interrupted
            }
        }
    }

    /// The default: start the modules, serve commands, shut down in order.
    @concurrent
    func serve(_ invocation: Invocation) async -> ExitCode {
        await host(invocation, laterPhases: .whileWorking(gracePeriod: HostLifecycle.gracePeriod)) { runtime, events, _ in
            let (ending, status) = await CommandLoop(runtime: runtime, events: events, invocation: invocation).run()
            if case .signal(let number) = ending { return Signals.exitCode(for: number) }
            return status
        }
    }

    /// Catches signals first (so Ctrl-C at any point shuts down in order), loads the manifest, and runs `work`
    /// inside the host lifecycle; the report is shown unless quiet.
    private func host(_ invocation: Invocation, laterPhases: ModuleManager.LaterPhases,
                      precheck: (HostRuntime) -> ExitCode? = { _ in nil },
                      _ work: @escaping @Sendable (HostRuntime, ShellEvents, StartupReport) async -> ExitCode) async -> ExitCode {
        let events = ShellEvents(inputIsTerminal: console.inputIsTerminal)
        do {
            let runtime = try await HostRuntime.load(invocation, console: console, events: events)
            if let code = precheck(runtime) { return code }
            let lifecycle = HostLifecycle(runtime: runtime, events: events, invocation: invocation)
            return await lifecycle.run(showReport: !(invocation.quiet || invocation.startsQuietly), laterPhases: laterPhases) { await work(runtime, events, $0) }
        } catch {
            return error.code
        }
    }
}
