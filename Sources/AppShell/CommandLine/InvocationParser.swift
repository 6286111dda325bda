import ModuleHost

/// Reads a command line against ``CommandLineTable``: `--name value`, `--name=value`, flags (which take no
/// value), combined short flags (`-qv`), `--` to end the options, and a check that every option given applies to
/// the subcommand.
struct InvocationParser {
    private(set) var given: [(option: CommandLineTable.Option, value: String?)] = []
    private(set) var positionals: [String] = []

    mutating func read(_ arguments: [String]) throws(Invocation.UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                positionals.append(contentsOf: arguments[index...])
                return
            }
            if argument.hasPrefix("--") {
                try readLong(argument, arguments, &index)
            } else if argument.hasPrefix("-"), argument.count > 1, Int64(argument) == nil {
                // "-5" is a number for a module command such as `fact`, not an option.
                try readShort(argument, arguments, &index)
            } else {
                positionals.append(argument)
            }
        }
    }

    private mutating func readLong(_ argument: String, _ arguments: [String], _ index: inout Int) throws(Invocation.UsageError) {
        let body = argument.dropFirst(2)
        let name = String(body.prefix { $0 != "=" })
        let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
        guard let option = CommandLineTable.option(long: name) else {
            let known = CommandLineTable.options.map { "--\($0.long)" }
            let hint = Suggestions.closest(to: "--" + name, in: known).map { "; did you mean \($0)?" } ?? ""
            throw Invocation.UsageError(message: "unknown option \(DisplayText.quoted("--" + name, with: "'"))\(hint)")
        }
        if option.isFlag, inline != nil { throw Invocation.UsageError(message: "the flag --\(name) takes no value") }
        try given.append((option, option.isFlag || inline != nil ? inline : value(for: "--\(name)", arguments, &index)))
    }

    private mutating func readShort(_ argument: String, _ arguments: [String], _ index: inout Int) throws(Invocation.UsageError) {
        var letters = argument.dropFirst()
        while let letter = letters.first {
            letters = letters.dropFirst()
            guard let option = CommandLineTable.option(short: letter) else {
                throw Invocation.UsageError(message: "unknown option \(DisplayText.quoted("-\(letter)", with: "'"))" + (argument.count > 2 ? " in \(DisplayText.quoted(argument, with: "'"))" : ""))
            }
            if option.isFlag {
                given.append((option, nil))
            } else {
                // The rest of the word is the value (`-mfile.json`), else the next word.
                given.append((option, letters.isEmpty ? try value(for: "-\(letter)", arguments, &index) : String(letters)))
                return
            }
        }
    }

    private func value(for name: String, _ arguments: [String], _ index: inout Int) throws(Invocation.UsageError) -> String {
        guard index < arguments.count, !arguments[index].hasPrefix("--") || arguments[index] == "-" else {
            throw Invocation.UsageError(message: "option \(name) needs a value")
        }
        index += 1
        return arguments[index - 1]
    }

    /// The invocation: the subcommand the words name, with the options applied.
    func invocation() throws(Invocation.UsageError) -> Invocation {
        var invocation = Invocation()
        let (kind, subcommandName) = try subcommand(&invocation)
        for (option, value) in given {
            // Help wins over everything: it takes the options that shape it (the manifest, --json), ignores the rest.
            if case .help = invocation.command {
                if option.applies(to: .help) { try apply(option, value, to: &invocation, subcommand: subcommandName) }
                continue
            }
            guard option.applies(to: kind) else {
                throw Invocation.UsageError(message: "option --\(option.long) does not apply to \(subcommandName)", subcommand: subcommandName)
            }
            try apply(option, value, to: &invocation, subcommand: subcommandName)
        }
        return invocation
    }

    private func subcommand(_ invocation: inout Invocation) throws(Invocation.UsageError) -> (CommandLineTable.Kind, String) {
        let first = positionals.first
        let rest = Array(positionals.dropFirst())
        let wantsHelp = given.contains { $0.option.long == "help" }
        if let script = given.first(where: { $0.option.long == "generate-completion-script" })?.value {
            guard let shell = CompletionScript.Shell(rawValue: script) else {
                throw Invocation.UsageError(message: "unknown shell \(DisplayText.quoted(script, with: "'")); expected bash, zsh or fish")
            }
            invocation.command = .completionScript(shell)
            return (.help, "help")
        }
        if given.contains(where: { $0.option.long == "version" }) {
            invocation.command = .version
            return (.help, "help")
        }
        guard let name = first else {
            invocation.command = wantsHelp ? .help(nil) : .run
            return (wantsHelp ? .help : .run, "run")
        }
        guard let subcommand = CommandLineTable.subcommand(name) else {
            // Any other word names a module's command; whether one exists is known once the manifest is read.
            invocation.command = wantsHelp ? .help(name) : .moduleCommand(name, rest)
            return (wantsHelp ? .help : .moduleCommand, name)
        }
        if subcommand.kind == .help {
            guard rest.count <= 1 else { throw Invocation.UsageError(message: "unexpected argument \(DisplayText.quoted(rest[1], with: "'")) after help", subcommand: "help") }
            invocation.command = .help(rest.first)
            return (.help, "help")
        }
        if subcommand.kind == .open, !wantsHelp {
            guard let url = rest.first else { throw Invocation.UsageError(message: "open needs a link, like 'modulehost://app/numbers/fact/28'", subcommand: name) }
            guard rest.count == 1 else { throw Invocation.UsageError(message: "unexpected argument after the link; quote a link that holds spaces or '&'", subcommand: name) }
            invocation.command = .open(url)
            return (.open, name)
        }
        guard rest.isEmpty else {
            throw Invocation.UsageError(message: "unexpected argument \(DisplayText.quoted(rest[0], with: "'")) after \(name)", subcommand: name)
        }
        if wantsHelp {
            invocation.command = .help(name)
            return (.help, "help")
        }
        invocation.command = switch subcommand.kind {
        case .validate: .validate
        case .modules: .modules
        case .services: .services
        case .startup: .startup
        case .graph: .graph(.dot)
        case .routes: .routes
        default: .run
        }
        return (subcommand.kind, name)
    }

    private func apply(_ option: CommandLineTable.Option, _ value: String?, to invocation: inout Invocation,
                       subcommand: String) throws(Invocation.UsageError) {
        let text = value ?? ""
        switch option.long {
        case "manifest": invocation.manifestPath = text
        case "state-dir": invocation.stateDirectory = text
        case "trace": invocation.tracePath = text
        case "json": invocation.json = true
        case "full": invocation.full = true
        case "quiet": invocation.quiet = true
        case "verbose": invocation.verbose = true
        case "format":
            guard let format = Invocation.GraphFormat(rawValue: text) else {
                throw Invocation.UsageError(message: "unknown graph format \(DisplayText.quoted(text, with: "'")); expected dot or mermaid", subcommand: subcommand)
            }
            invocation.command = .graph(format)
        default: break
        }
    }
}
