import ModuleHost
import NumbersInterface

/// The NumbersModule's commands: `fact <n>`, `random`, `history`.
enum NumbersCommands {
    static let all: [ModuleCommand] = [
        ModuleCommand("fact", usage: "fact <n>", summary: "a fact about the integer n",
                      argumentCompletions: numbersLookedUp, run: fact),
        ModuleCommand("random", summary: "a fact about a random number", run: random),
        ModuleCommand("history", summary: "the facts you looked up", run: history),
    ]

    /// `fact`'s Tab completions: the numbers in the history, most recent first, each once.
    @Sendable
    static func numbersLookedUp(_ manager: any ModuleContext) -> [String] {
        guard let service = try? manager.bridge.resolveIfProvided(NumberFactService.self) else { return [] }
        var seen = Set<Int64>()
        return service.history().reversed().map(\.fact.number).filter { seen.insert($0).inserted }.map(String.init)
    }

    @Sendable
    static func fact(_ context: ModuleCommand.Context) async throws -> ModuleCommand.Output {
        let text = try context.singleArgument(usage: "fact <n>")
        guard let number = Int64(text) else {
            throw ModuleCommandError(.usage, "'\(text)' is not an integer from \(Int64.min) to \(Int64.max)")
        }
        let fact = try context.manager.bridge.resolve(NumberFactService.self).fact(about: number)
        return .text(fact.content, value: fact)
    }

    @Sendable
    static func random(_ context: ModuleCommand.Context) async throws -> ModuleCommand.Output {
        guard context.arguments.isEmpty else { throw ModuleCommandError(.usage, "usage: random") }
        let fact = try context.manager.bridge.resolve(NumberFactService.self).randomFact()
        return .text(fact.content, value: fact)
    }

    @Sendable
    static func history(_ context: ModuleCommand.Context) async throws -> ModuleCommand.Output {
        guard context.arguments.isEmpty else { throw ModuleCommandError(.usage, "usage: history") }
        let numbers = try context.manager.bridge.resolve(NumberFactService.self)
        let entries = numbers.history()
        return .text(historyText(entries, owner: numbers.currentUser), value: entries)
    }

    /// The `history` listing. Entries come from a file that may have been tampered with, so control characters
    /// (terminal escapes, line breaks) and anything outside printable ASCII are shown escaped, as `\u{1b}`.
    static func historyText(_ entries: [NumberFactHistoryEntry], owner: String?) -> String {
        let owner = owner.map(printable) ?? "anonymous"
        guard !entries.isEmpty else { return "No facts looked up yet (\(owner))." }
        let lines = entries.enumerated().map { "  \($0.offset + 1). \(printable($0.element.fact.content))" }
        return (["History (\(owner)):"] + lines).joined(separator: "\n")
    }

    /// `text` escaped as ``DisplayText`` does, without the quotes (a double quote shows as `\u{22}`; facts have none).
    static func printable(_ text: String) -> String {
        String(DisplayText.quoted(text, with: "\"").dropFirst().dropLast())
    }
}
