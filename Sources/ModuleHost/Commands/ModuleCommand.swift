/// One command a module adds to a host's command line.
public struct ModuleCommand: Sendable {
    /// The word that invokes it, such as `greet`.
    public let name: String
    /// How to call it, such as `greet <name>`.
    public let usage: String
    /// One line on what it does.
    public let summary: String
    /// Whether it reads a secret (a password) through ``ModuleCommand/IO/readSecret(prompt:)``. In a script the
    /// secret is the line after the command's own; a host that runs scripts drops that line when the command
    /// ended without reading it (it failed first), so a secret is never run as the next command.
    public let readsSecretLine: Bool
    /// Runs it.
    package let run: @Sendable (_ context: Context) async throws -> Output
    /// What completes the first argument, or `nil` when the command offers nothing.
    package let argumentCompletions: (@Sendable (_ manager: any ModuleContext) -> [String])?

    /// Declares a command.
    ///
    /// - Parameters:
    ///   - name: The word that invokes it, such as `greet`.
    ///   - usage: How to call it, such as `greet <name>`; the name alone by default.
    ///   - summary: One line on what it does, for `help`.
    ///   - readsSecretLine: Whether it reads a secret, such as a password; see ``readsSecretLine``. `false` by default.
    ///   - argumentCompletions: The words that may come first after the command's name, for a host's Tab completion
    ///     (app-shell's prompt). It is called on the host's input thread while the user waits, so it must be quick
    ///     and must not block; it resolves what it needs through the manager's bridge, and returns no words when
    ///     that fails. The host keeps only the words that start with what was typed. None by default.
    ///   - run: The body: given the words after the command's name and a way to talk to the user, it returns what
    ///     to print, or throws (a ``ModuleCommandError`` chooses the exit status; any other error is a failure).
    public init(_ name: String, usage: String? = nil, summary: String, readsSecretLine: Bool = false,
                argumentCompletions: (@Sendable (_ manager: any ModuleContext) -> [String])? = nil,
                run: @escaping @Sendable (_ context: Context) async throws -> Output) {
        self.name = name
        self.usage = usage ?? name
        self.summary = summary
        self.readsSecretLine = readsSecretLine
        self.argumentCompletions = argumentCompletions
        self.run = run
    }

    /// Why `name` cannot name a command, or `nil` when it can: one word of ASCII letters, digits, `-`, `_` and
    /// `.`, starting with a letter or digit, at most 64 characters (so it can be typed, and printed safely).
    package static func problem(withName name: String) -> String? {
        if name.isEmpty { return "a command name must not be empty" }
        if name.utf8.count > 64 { return "a command name must be at most 64 characters long" }
        let allowed = { (byte: UInt8) in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        }
        guard let first = name.utf8.first, allowed(first) else {
            return "a command name must start with an ASCII letter or digit"
        }
        guard name.utf8.allSatisfy({ allowed($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }) else {
            return "a command name may contain only ASCII letters, digits, \"-\", \"_\" and \".\""
        }
        return nil
    }
}
