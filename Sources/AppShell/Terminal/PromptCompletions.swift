import ModuleHost
import ModuleHostRouting

/// What Tab completes at the prompt: command names, then the first argument of a command that offers
/// completions. The one list of the prompt's commands: whatever else lists them can be built from ``commands``.
struct PromptCompletions: Sendable {
    /// A command the prompt knows, and what completes its first argument.
    struct Command: Sendable {
        let name: String
        let firstArgument: @Sendable () -> [String]
    }

    let commands: [Command]

    /// The shell's own commands (with `reload` completing module identifiers and `open` route paths) and every
    /// module command.
    static func shell(_ manager: ModuleManager) -> PromptCompletions {
        var commands: [Command] = []
        for name in ShellCommands.builtInNames + ["exit"] {
            let offered: @Sendable () -> [String] = switch name {
            case "reload": { manager.modules.map(\.identifier.rawValue) }
            case "open": { routePaths(manager) }
            default: { [] }
            }
            commands.append(Command(name: name, firstArgument: offered))
        }
        for (_, command) in manager.moduleCommands() {
            let offered = command.argumentCompletions
            commands.append(Command(name: command.name, firstArgument: { offered?(manager) ?? [] }))
        }
        return PromptCompletions(commands: commands)
    }

    /// The routes' paths up to their first parameter (`/numbers/fact/`), as typed after `open` at the prompt.
    private static func routePaths(_ manager: ModuleManager) -> [String] {
        manager.router.routes.map { route in
            guard let parameter = route.pattern.firstRange(of: "/:") else { return route.pattern }
            return String(route.pattern[..<parameter.lowerBound]) + "/"
        }
    }

    /// The words that complete `word`, which starts after `before` on the line: command names for the first
    /// word, the command's first-argument words for the second, nothing after that. Sorted, each once.
    func candidates(for word: String, after before: String) -> [String] {
        let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let offered: [String]
        switch words.count {
        case 0: offered = commands.map(\.name)
        case 1: offered = commands.first { $0.name == words[0] }?.firstArgument() ?? []
        default: offered = []
        }
        return Array(Set(offered.filter { $0.hasPrefix(word) })).sorted()
    }
}
