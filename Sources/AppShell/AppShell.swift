import Foundation
import ModuleHost

/// The `app-shell` executable: hosts the modules listed in a manifest.
@main
enum AppShellMain {
    static func main() async {
        // Write errors on a closed pipe are handled where they happen, instead of killing the process.
        signal(SIGPIPE, SIG_IGN)
        let code = await AppShell(console: .standard()).run(Array(CommandLine.arguments.dropFirst()))
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
            console.diagnostic("Run 'app-shell --help' for usage.")
            return .usage
        }
        do {
            switch invocation.command {
            case .help:
                console.out(Invocation.usage)
                return .ok
            case .version:
                console.out("app-shell \(Invocation.version)")
                return .ok
            case .validate:
                return try validate(invocation)
            case .modules:
                let runtime = try HostRuntime.load(invocation, console: console)
                Listings(console: console, json: invocation.json).modules(runtime.manager.modules)
                return .ok
            case .graph(let format):
                let runtime = try HostRuntime.load(invocation, console: console)
                let plan = try runtime.plan()
                console.out(format == .dot ? plan.dotGraph() : plan.mermaidGraph())
                return .ok
            case .fact(let text):
                guard let number = Int64(text) else {
                    console.error("'\(text)' is not an integer from \(Int64.min) to \(Int64.max)")
                    console.diagnostic("Run 'app-shell --help' for usage.")
                    return .usage
                }
                return try await fact(number, invocation)
            case .run:
                return try await serve(invocation)
            }
        } catch {
            return error.code
        }
    }

    /// `app-shell validate`: every manifest and startup-plan problem, exit 65 (or 66) if any is an error.
    private func validate(_ invocation: Invocation) throws(HostRuntime.Stop) -> ExitCode {
        let runtime = try HostRuntime.load(invocation, console: console)
        let plan = try runtime.plan()
        let modules = runtime.manager.modules.count
        console.out("\(runtime.manifestURL.path): valid (\(modules) module\(modules == 1 ? "" : "s"), \(plan.operations.count) startup operation\(plan.operations.count == 1 ? "" : "s"))")
        return .ok
    }

    /// `app-shell fact <n>`: start quietly, print one fact, shut down.
    private func fact(_ number: Int64, _ invocation: Invocation) async throws(HostRuntime.Stop) -> ExitCode {
        let events = ShellEvents(inputIsTerminal: false)
        let runtime = try HostRuntime.load(invocation, console: console)
        var quiet = invocation
        quiet.quiet = true
        let outcome = await StartupRunner(runtime: runtime, events: events, invocation: quiet).run(showReport: false)
        if case .stopped(let code) = outcome {
            return await Shutdown(runtime: runtime, tracePath: invocation.tracePath, verbose: invocation.verbose).perform(code)
        }
        let printed = ShellCommands(runtime: runtime, invocation: invocation).fact(String(number))
        return await Shutdown(runtime: runtime, tracePath: invocation.tracePath, verbose: invocation.verbose).perform(printed ? .ok : .failure)
    }

    /// The default: start the modules, serve commands, shut down in order.
    private func serve(_ invocation: Invocation) async throws(HostRuntime.Stop) -> ExitCode {
        // Catch signals first, so Ctrl-C at any point shuts down in order.
        let events = ShellEvents(inputIsTerminal: console.inputIsTerminal)
        let runtime = try HostRuntime.load(invocation, console: console)
        let outcome = await StartupRunner(runtime: runtime, events: events, invocation: invocation).run(showReport: !invocation.quiet)
        let shutdown = Shutdown(runtime: runtime, tracePath: invocation.tracePath, verbose: invocation.verbose)
        switch outcome {
        case .stopped(let code):
            return await shutdown.perform(code, cancelRemaining: true)
        case .started:
            runtime.manager.initiator.hostDidBecomeReady()
            let (ending, loginFailed) = await CommandLoop(runtime: runtime, events: events, invocation: invocation).run()
            switch ending {
            case .signal(let number):
                return await shutdown.perform(StartupRunner.exitCode(for: number), cancelRemaining: true)
            case .quit, .endOfInput:
                let code: ExitCode = loginFailed && !console.inputIsTerminal ? .authenticationFailed : .ok
                return await shutdown.perform(code)
            }
        }
    }
}
