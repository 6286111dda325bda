/// The one declaration of app-shell's command line: its subcommands and options, with their help. Parsing
/// (``Invocation/parse(_:)``), help (``HelpText``) and completion scripts (``CompletionScript``) all read it, so
/// a subcommand or an option is added here, once.
enum CommandLineTable {
    /// What a subcommand is, for deciding which options apply.
    enum Kind: String, Sendable, CaseIterable {
        case run, validate, modules, services, startup, graph, routes, open, help, moduleCommand
    }

    /// A subcommand of the shell's own.
    struct Subcommand: Sendable {
        let name: String
        let kind: Kind
        /// What follows the name in its usage line, such as `[<topic>]`.
        let arguments: String
        let abstract: String
    }

    /// An option: a flag (no value) or an option that takes one.
    struct Option: Sendable {
        let long: String
        let short: Character?
        /// The value's name in help (`path`), or `nil` for a flag.
        let valueName: String?
        let help: String
        /// The subcommands it applies to; `nil` for every one. An array, not a set: a few kinds, and a set of a new
        /// element type costs the runtime a search of every conformance in the process on first use.
        let appliesTo: [Kind]?
        /// Whether the value is a file path (for completion).
        var completesFiles = false

        var isFlag: Bool { valueName == nil }

        /// `-m, --manifest <path>`.
        var label: String {
            let names = (short.map { "-\($0), " } ?? "    ") + "--\(long)"
            return valueName.map { "\(names) <\($0)>" } ?? names
        }

        func applies(to kind: Kind) -> Bool { appliesTo?.contains(kind) ?? true }
    }

    static let subcommands: [Subcommand] = [
        Subcommand(name: "run", kind: .run, arguments: "", abstract: "start the modules and serve commands (the default)"),
        Subcommand(name: "validate", kind: .validate, arguments: "", abstract: "check the manifest and its startup plan; report every problem"),
        Subcommand(name: "modules", kind: .modules, arguments: "", abstract: "list the manifest's modules"),
        Subcommand(name: "services", kind: .services, arguments: "", abstract: "list the services the modules provide, and who provides each"),
        Subcommand(name: "startup", kind: .startup, arguments: "",
                   abstract: "start the modules, let every phase run, print the startup report, shut down"),
        Subcommand(name: "graph", kind: .graph, arguments: "", abstract: "print the startup dependency graph"),
        Subcommand(name: "routes", kind: .routes, arguments: "", abstract: "list the routes the modules offer, and which other programs may open"),
        Subcommand(name: "open", kind: .open, arguments: "<url>",
                   abstract: "open a link the way another program hands the app one: only routes marked external open"),
        Subcommand(name: "help", kind: .help, arguments: "[<subcommand>]", abstract: "show help, for the shell or one subcommand"),
    ]

    /// Everything that starts modules and may run commands.
    private static let starting: [Kind] = [.run, .startup, .open, .moduleCommand]
    private static let readingManifest: [Kind] = [.run, .validate, .modules, .services, .startup, .graph, .routes, .open, .moduleCommand, .help]

    static let options: [Option] = [
        Option(long: "manifest", short: "m", valueName: "path",
               help: "the manifest (default: modules.json in the working directory; relative paths inside it are relative to its folder)",
               appliesTo: readingManifest, completesFiles: true),
        Option(long: "state-dir", short: nil, valueName: "path",
               help: "where modules keep state (default: .app-shell in the working directory)", appliesTo: starting, completesFiles: true),
        Option(long: "trace", short: nil, valueName: "file",
               help: "write the startup timeline as a Chrome trace (open it in Perfetto)", appliesTo: starting, completesFiles: true),
        Option(long: "format", short: nil, valueName: "dot|mermaid", help: "the graph's format (default: dot)", appliesTo: [.graph]),
        Option(long: "json", short: nil, valueName: nil,
               help: "print data as JSON Lines: one document per line, with a type and a version", appliesTo: [.run, .validate, .modules, .services, .startup, .graph, .routes, .open, .moduleCommand, .help]),
        Option(long: "full", short: nil, valueName: nil,
               help: "print tables at full width, wrapping nothing away (the startup report's errors in full)", appliesTo: starting),
        Option(long: "quiet", short: "q", valueName: nil, help: "do not print the startup report", appliesTo: [.run, .open, .moduleCommand]),
        Option(long: "verbose", short: "v", valueName: nil,
               help: "say what the shell does: the manifest read, the modules unloaded at shutdown, in order", appliesTo: readingManifest),
        Option(long: "help", short: "h", valueName: nil, help: "show help (for the subcommand, after one)", appliesTo: nil),
        Option(long: "version", short: nil, valueName: nil, help: "show the version", appliesTo: nil),
        Option(long: "generate-completion-script", short: nil, valueName: "bash|zsh|fish",
               help: "print a completion script for the shell named, with this manifest's module commands", appliesTo: nil),
    ]

    static func option(long: String) -> Option? { options.first { $0.long == long } }
    static func option(short: Character) -> Option? { options.first { $0.short == short } }
    static func subcommand(_ name: String) -> Subcommand? { subcommands.first { $0.name == name } }
}
