import ModuleHost

/// What the command line asked for, parsed by ``Invocation/parse(_:)`` from ``CommandLineTable``.
struct Invocation: Equatable, Sendable {
    /// The subcommand.
    enum Command: Equatable, Sendable {
        /// Start the modules and serve commands (the default).
        case run
        /// Check a manifest and its startup plan, reporting every problem.
        case validate
        /// List the manifest's modules.
        case modules
        /// List the services the manifest's modules provide.
        case services
        /// Start the modules, let every phase run, print the startup report, shut down.
        case startup
        /// Print the startup dependency graph.
        case graph(GraphFormat)
        /// List the routes the modules offer.
        case routes
        /// Start the modules, open one link as another program would, shut down.
        case open(String)
        /// Start the modules, run one module command (its name and arguments), shut down.
        case moduleCommand(String, [String])
        /// Print help: the shell's, or one subcommand's.
        case help(String?)
        /// Print the version.
        case version
        /// Print a completion script for a shell.
        case completionScript(CompletionScript.Shell)
    }

    /// Formats of `app-shell graph`: the library's.
    typealias GraphFormat = ModuleManager.GraphFormat

    var command: Command = .run
    var manifestPath = "modules.json"
    var stateDirectory: String?
    var tracePath: String?
    var json = false
    var full = false
    var quiet = false
    /// A one-shot command's start: no progress and no startup report, though notes still show unless `quiet`.
    var startsQuietly = false
    var verbose = false

    /// A command line that cannot be understood: printed with the subcommand's usage line, exit 64.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        let message: String
        /// The subcommand whose usage line to show (`nil`: the shell's).
        var subcommand: String?
        var description: String { message }
    }

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var parser = InvocationParser()
        try parser.read(arguments)
        return try parser.invocation()
    }

    /// Whether `arguments` ask for `--json` among their options (before any `--`), for a command line that cannot
    /// be parsed: its error is then a JSON document too.
    static func asksForJSON(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "--json" }
    }

    /// The subcommands the shell handles itself, in ``CommandLineTable`` order; no module command may take these names.
    static var subcommands: [String] { CommandLineTable.subcommands.map { $0.name } }

    static let version = "0.1.0"
}
