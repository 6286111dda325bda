import ModuleHost

/// `app-shell --help` and `app-shell help <subcommand>`, rendered from ``CommandLineTable`` at a width.
struct HelpText {
    let width: Int
    /// The commands the manifest's modules declare, when it can be read.
    let moduleCommands: [(module: ModuleIdentifier, command: ModuleCommand)]

    /// The shell's help.
    func general() -> String {
        var lines = TextWrap.lines("USAGE: app-shell [<subcommand>] [<options>]", width: width, indent: 7)
            + TextWrap.lines("app-shell <module-command> [<argument>...] [<options>]", width: max(13, width - 7)).map { "       " + $0 } + [""]
        lines += TextWrap.lines("Loads the modules listed in a manifest, runs their startup operations, then serves commands: an interactive prompt on a terminal, or one command per line from standard input.", width: width)
        lines += ["", "SUBCOMMANDS:"]
        lines += rows(CommandLineTable.subcommands.map { ($0.arguments.isEmpty ? $0.name : "\($0.name) \($0.arguments)", $0.abstract) })
        lines += rows([("<module-command>", "start the modules, run one command a module declares, and exit (listed below)")])
        lines += ["", "OPTIONS:"] + rows(CommandLineTable.options.map { ($0.label, $0.help) })
        if !moduleCommands.isEmpty {
            lines += ["", "COMMANDS FROM MODULES:"]
            lines += rows(moduleCommands.map { ($0.command.usage, "\($0.command.summary) [\($0.module)]") })
        }
        lines += ["", "ENVIRONMENT:"] + rows([("NO_COLOR", "when set, never use colours (they are used only on a terminal anyway)"),
                                              ("COLUMNS", "the width of the output when it is not a terminal (default 80)")])
        lines += ["", "EXIT STATUS:"]
        lines += TextWrap.lines("0 ok, 1 command failed, 64 usage error, 65 invalid manifest or startup plan, 66 manifest not found, 70 startup failed, 73 cannot write the trace, 77 refused (a failed log-in, or a link to an in-app route or one its module rejected), 130 interrupted (SIGINT), 143 terminated (SIGTERM); commands read from standard input: the status of the first command that failed.", width: width - 2).map { "  " + $0 }
        lines += [""] + TextWrap.lines("See 'app-shell help <subcommand>' for one subcommand's options.", width: width)
        return lines.joined(separator: "\n")
    }

    /// One subcommand's (or module command's) help; `nil` when the name is neither.
    func subcommand(_ name: String) -> String? {
        let (kind, overview, usage): (CommandLineTable.Kind, String, String)
        if let subcommand = CommandLineTable.subcommand(name) {
            (kind, overview, usage) = (subcommand.kind, subcommand.abstract, Self.usage(of: name))
        } else if let (module, command) = moduleCommands.first(where: { $0.command.name == name }) {
            (kind, overview, usage) = (.moduleCommand, "\(command.summary) (from \(module))", "app-shell \(command.usage) [<options>]")
        } else { return nil }
        let options = CommandLineTable.options.filter { $0.appliesTo != nil && $0.applies(to: kind) }
        var lines = TextWrap.lines("OVERVIEW: \(overview)", width: width, indent: 10) + [""]
        lines += TextWrap.lines("USAGE: " + usage, width: width, indent: 7)
        if !options.isEmpty { lines += ["", "OPTIONS:"] + rows(options.map { ($0.label, $0.help) }) }
        return lines.joined(separator: "\n")
    }

    /// One command in `help --json`: its name, usage, summary and, for a module's, the module.
    struct Entry: Encodable {
        let name: String
        let usage: String
        let summary: String
        let module: ModuleIdentifier?
    }

    /// The subcommands and the module commands, for `app-shell --help --json`.
    func entries() -> [Entry] {
        CommandLineTable.subcommands.map { Entry(name: $0.name, usage: Self.usage(of: $0.name), summary: $0.abstract, module: nil) }
            + Self.entries(of: moduleCommands)
    }

    /// The module commands' entries, in order.
    static func entries(of moduleCommands: [(module: ModuleIdentifier, command: ModuleCommand)]) -> [Entry] {
        moduleCommands.map { Entry(name: $0.command.name, usage: $0.command.usage, summary: $0.command.summary, module: $0.module) }
    }

    /// `app-shell validate [<options>]`: how a subcommand (or, for `nil`, the shell) is called.
    static func usage(of subcommand: String?) -> String {
        guard let subcommand, let entry = CommandLineTable.subcommand(subcommand) else {
            return "app-shell [<subcommand>] [<options>]"
        }
        return "app-shell \(entry.name)\(entry.arguments.isEmpty ? "" : " " + entry.arguments) [<options>]"
    }

    /// Two columns: names padded, descriptions wrapped to the width (below the name when the names are wide).
    private func rows(_ entries: [(String, String)]) -> [String] {
        let nameWidth = min(entries.map(\.0.count).max() ?? 0, max(10, width / 3))
        let descriptionWidth = max(20, width - nameWidth - 4)
        return entries.flatMap { name, description -> [String] in
            let wrapped = TextWrap.lines(description, width: descriptionWidth)
            let indent = String(repeating: " ", count: nameWidth + 4)
            if name.count > nameWidth || width < 40 {
                return TextWrap.lines(name, width: max(10, width - 2)).map { "  " + $0 }
                    + TextWrap.lines(description, width: max(20, width - 6)).map { "      " + $0 }
            }
            let first = "  " + name.padded(to: nameWidth) + "  " + wrapped[0]
            return [first] + wrapped.dropFirst().map { indent + $0 }
        }
    }
}
