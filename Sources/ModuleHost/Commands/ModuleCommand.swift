/// One command a module adds to a host's command line.
public struct ModuleCommand: Sendable {
    /// The body of a command: given the words after its name and a way to talk to the user, it returns what
    /// to print, or throws (a ``ModuleCommandError`` chooses the exit status; any other error is a failure).
    public typealias Body = @Sendable (_ context: ModuleCommandContext) async throws -> ModuleCommandOutput

    /// The word that invokes it, such as `greet`.
    public let name: String
    /// How to call it, such as `greet <name>`.
    public let usage: String
    /// One line on what it does.
    public let summary: String
    /// Runs it.
    public let run: Body

    /// Declares a command; `usage` defaults to the name alone.
    public init(_ name: String, usage: String? = nil, summary: String, run: @escaping Body) {
        self.name = name
        self.usage = usage ?? name
        self.summary = summary
        self.run = run
    }

    /// Why `name` cannot name a command, or `nil` when it can: it must be a single word, not an option.
    static func problem(withName name: String) -> String? {
        if name.isEmpty { return "a command name must not be empty" }
        if name.contains(where: { $0.isWhitespace || $0.isNewline }) { return "a command name must be one word, without spaces" }
        if name.hasPrefix("-") { return "a command name must not start with \"-\", which starts an option" }
        if name.hasPrefix("#") { return "a command name must not start with \"#\", which starts a comment" }
        return nil
    }
}
