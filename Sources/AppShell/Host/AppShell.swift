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
        // First of all: from here on every signal goes to the one thread that waits for them (``Signals``).
        Signals.start()
        let console = Console.standard()
        let arguments = argumentsAfterTheProgramName()
        let code = await AppShell(console: console).run(arguments)
        // Every way out passes here: echo is on when the shell ends, whatever path it took (a signal ends the
        // process while the input thread may still be blocked in a password read).
        TerminalEcho.standardInput.restore()
        exit(code.rawValue)
    }

    /// `CommandLine.arguments` without the program's name, read from `argv` the way the standard library reads
    /// them, without building the whole array first and then a slice of it.
    private static func argumentsAfterTheProgramName() -> [String] {
        var arguments: [String] = []
        arguments.reserveCapacity(max(0, Int(CommandLine.argc) - 1))
        for index in 1..<max(1, Int(CommandLine.argc)) {
            if let argument = CommandLine.unsafeArgv[index] { arguments.append(String(cString: argument)) }
        }
        return arguments
    }
}

/// Dispatches the command line to a subcommand and turns every outcome into a documented exit status.
///
/// The subcommands that start no module (`AppShell+StartingNothing.swift`) run synchronously on the caller's
/// thread, the main thread: they need no other thread or executor, so they start and end about as fast as a hello
/// world. Those that start modules (`AppShell+Starting.swift`) run on the global executor, with ``ShellEvents``.
struct AppShell {
    let console: Console

    /// Runs the command line; `nonisolated(nonsending)`, so the parse and the subcommands that start nothing run
    /// where the caller does (the main actor) instead of first hopping to the global executor.
    nonisolated(nonsending) func run(_ arguments: [String]) async -> ExitCode {
        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments)
        } catch {
            return reportUsage(error, json: Invocation.asksForJSON(arguments))
        }
        return await AppShell(console: console.jsonMode(invocation.json)).dispatch(invocation)
    }

    /// A command line that cannot be parsed: the problem and how to get help, or under `--json` one error document.
    private func reportUsage(_ error: Invocation.UsageError, json: Bool) -> ExitCode {
        guard !json else {
            console.jsonMode(true).error(error.message, exitStatus: .usage)
            return .usage
        }
        console.error(error.message)
        console.diagnostic("Usage: " + HelpText.usage(of: error.subcommand))
        console.diagnostic("Run 'app-shell \(error.subcommand.map { "help \($0)" } ?? "--help")' for usage.")
        return .usage
    }

    /// Runs the subcommand `invocation` names.
    nonisolated(nonsending) private func dispatch(_ invocation: Invocation) async -> ExitCode {
        switch invocation.command {
        case .open(let url):
            return await open(url, invocation)
        case .moduleCommand(let name, let arguments):
            return await runOnce(name, arguments, invocation)
        case .run:
            return await serve(invocation)
        case .startup:
            return await startupReport(invocation)
        case .help(let topic):
            return startingNothing { help(topic, invocation) }
        case .completionScript(let shell):
            return startingNothing { completionScript(for: shell, invocation) }
        case .version:
            return startingNothing { version(invocation) }
        case .validate:
            return startingNothing { () throws(HostRuntime.Stop) in try validate(invocation) }
        case .modules, .services, .routes:
            return startingNothing { () throws(HostRuntime.Stop) in try list(invocation) }
        case .graph(let format):
            return startingNothing { () throws(HostRuntime.Stop) in try graph(format, invocation) }
        }
    }
}

