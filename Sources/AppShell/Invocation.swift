import Foundation
import ModuleHost

/// What the command line asked for, parsed by ``Invocation/parse(_:)``.
struct Invocation: Equatable, Sendable {
    /// The subcommand.
    enum Command: Equatable, Sendable {
        /// Start the modules and serve commands (the default).
        case run
        /// Check a manifest and its startup plan, reporting every problem.
        case validate
        /// List the manifest's modules.
        case modules
        /// Print the startup dependency graph.
        case graph(GraphFormat)
        /// Start the modules, run one module command (its name and arguments), shut down.
        case moduleCommand(String, [String])
        /// Print help.
        case help
        /// Print the version.
        case version
    }

    /// Formats of `app-shell graph`.
    enum GraphFormat: String, CaseIterable, Sendable {
        case dot, mermaid
    }

    var command: Command = .run
    var manifestPath = "modules.json"
    var stateDirectory: String?
    var tracePath: String?
    var json = false
    var quiet = false
    var verbose = false

    /// A command line that cannot be understood; printed with the usage, exit 64.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Parses the arguments after the program name: the options, then the subcommand the other words name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var invocation = Invocation()
        let words = try invocation.readOptions(arguments)
        if invocation.command == .help || invocation.command == .version {
            return invocation
        }
        try invocation.readSubcommand(words.positionals, graphFormat: words.graphFormat)
        return invocation
    }

    /// The options the shell knows, for suggestions after a typo.
    private static let knownOptions = ["--help", "--version", "--manifest", "--state-dir", "--trace", "--format", "--json", "--quiet", "--verbose"]

    /// Sets the options found in `arguments` (`--name value`, `--name=value` or a flag); returns the other words,
    /// in order, and the `--format` given, which only the graph subcommand takes.
    private mutating func readOptions(_ arguments: [String]) throws(UsageError) -> (positionals: [String], graphFormat: GraphFormat?) {
        var positionals: [String] = []
        var graphFormat: GraphFormat?
        var index = 0
        func value(for option: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count, !arguments[index].hasPrefix("--") || arguments[index] == "-" else {
                throw UsageError(message: "option \(option) needs a value")
            }
            return arguments[index]
        }
        while index < arguments.count {
            var argument = arguments[index]
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                inlineValue = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            func take() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                return try value(for: argument)
            }
            switch argument {
            case "--":
                positionals.append(contentsOf: arguments[(index + 1)...])
                return (positionals, graphFormat)
            case "--format":
                let name = try take()
                guard let format = GraphFormat(rawValue: name) else {
                    throw UsageError(message: "unknown graph format '\(name)'; expected dot or mermaid")
                }
                graphFormat = format
            default:
                if try !setOption(argument, value: take) {
                    positionals.append(argument)
                }
            }
            index += 1
        }
        return (positionals, graphFormat)
    }

    /// Sets `argument` if it is one of the shell's options other than `--format`, reading its value with `value`;
    /// `false` if it is a plain word. An unknown option is an error.
    private mutating func setOption(_ argument: String, value: () throws(UsageError) -> String) throws(UsageError) -> Bool {
        switch argument {
        case "-h", "--help": command = .help
        case "--version": command = .version
        case "-m", "--manifest": manifestPath = try value()
        case "--state-dir": stateDirectory = try value()
        case "--trace": tracePath = try value()
        case "--json": json = true
        case "-q", "--quiet": quiet = true
        case "-v", "--verbose": verbose = true
        default:
            // "-5" is a number for a module command such as `fact`, not an option.
            guard argument.hasPrefix("-"), argument.count > 1, Int64(argument) == nil else { return false }
            let hint = Suggestions.closest(to: argument, in: Self.knownOptions).map { "; did you mean \($0)?" } ?? ""
            throw UsageError(message: "unknown option '\(argument)'\(hint)")
        }
        return true
    }

    /// Sets the command from the words left after the options: a subcommand of the shell's, or a module's command.
    private mutating func readSubcommand(_ positionals: [String], graphFormat: GraphFormat?) throws(UsageError) {
        if graphFormat != nil, positionals.first != "graph" {
            throw UsageError(message: "--format applies to the graph subcommand")
        }
        guard let name = positionals.first else { return }
        let rest = Array(positionals.dropFirst())
        switch name {
        case "validate", "modules", "graph", "run":
            guard rest.isEmpty else { throw UsageError(message: "unexpected argument '\(rest[0])' after \(name)") }
            command = switch name {
            case "validate": .validate
            case "modules": .modules
            case "graph": .graph(graphFormat ?? .dot)
            default: .run
            }
        case "help":
            command = .help
        default:
            // Any other word names a module's command; whether one exists is known once the manifest is read.
            command = .moduleCommand(name, rest)
        }
    }

    /// The subcommands the shell handles itself; no module command may take these names.
    static let subcommands: Set<String> = ["run", "validate", "modules", "graph", "help"]

    static let version = "0.1.0"

    static let usage = """
        USAGE: app-shell [<subcommand>] [options]
               app-shell <module-command> [<argument>...] [options]

        Loads the modules listed in a manifest, runs their startup operations, then serves commands:
        an interactive prompt on a terminal, or one command per line from standard input.

        SUBCOMMANDS:
          run (default)          start the modules and serve commands
          validate               check the manifest and its startup plan; report every problem
          modules                list the manifest's modules
          graph [--format F]     print the startup dependency graph (F: dot, the default, or mermaid)
          <module-command>       start the modules, run one command a module declares, and exit
                                 (listed below when the manifest can be read, e.g. fact <n>)
          help                   show this help

        OPTIONS:
          -m, --manifest <path>  the manifest (default: modules.json in the working directory)
          --state-dir <path>     where modules keep state (default: .app-shell in the working directory)
          --trace <file>         write the startup timeline as a Chrome trace (open it in Perfetto)
          --json                 print data (reports, lists, facts, diagnostics) as JSON
          -q, --quiet            do not print the startup report
          -v, --verbose          report shutdown steps (modules unloaded, in order) on standard error
          -h, --help             show this help
          --version              show the version

        ENVIRONMENT:
          NO_COLOR               when set, never use colours (they are used only on a terminal anyway)

        EXIT STATUS:
          0 ok, 1 command failed, 64 usage error, 65 invalid manifest or startup plan,
          66 manifest not found, 70 startup failed, 73 cannot write the trace,
          77 authentication failed, 130 interrupted (SIGINT), 143 terminated (SIGTERM);
          commands read from standard input: the status of the first command that failed
        """
}
