import ModuleHost

/// How module commands talk to the person (or script) at the shell: prompts only on a terminal, secrets read
/// without echo, and the end of input or a signal remembered, so the loop stops after the command returns.
final class ShellIO: ModuleCommand.IO {
    private let input: ShellInput
    private let console: Console
    private let ending = Locked<CommandLoop.Ending?>(nil)
    private let secrets = Locked(0)

    init(input: ShellInput, console: Console) {
        self.input = input
        self.console = console
    }

    /// Why input stopped while a command was reading, if it did.
    var interruption: CommandLoop.Ending? {
        ending.withLock { $0 }
    }

    func readLine(prompt: String) async -> String? {
        await read(prompt: prompt, echo: true)
    }

    func readSecret(prompt: String) async -> String? {
        secrets.withLock { $0 += 1 }
        return await read(prompt: prompt, echo: false)
    }

    /// How many times a command asked for a secret.
    var secretsRead: Int { secrets.withLock { $0 } }

    var isInteractive: Bool { console.inputIsTerminal }

    func write(_ line: String) {
        console.out(line)
    }

    private func read(prompt: String, echo: Bool) async -> String? {
        // A line shown as typed is edited (when libedit is loaded), with the prompt drawn by the editor; it is
        // not kept in the history, which holds command lines only.
        // A secret: echo goes off before the prompt shows, so nothing typed at it is ever echoed or taken for a
        // signal (the input thread keeps it off for the read and turns it back on after).
        if console.inputIsTerminal, !echo { _ = TerminalEcho.standardInput.silence() }
        if console.inputIsTerminal, !(echo && LineEditor.standardInput.prepare(prompt: prompt, keepsHistory: false)) {
            console.outPartial(prompt)
        }
        switch await input.next(echo: echo) {
        case .line(let text):
            return text
        case .interrupted:
            // Ctrl-C: the question is cancelled, the shell goes on (the command decides what `nil` means). Echo is
            // back on even if the read never began (the command was cancelled before it asked).
            if console.inputIsTerminal, !echo { TerminalEcho.standardInput.unsilence() }
        case .tooLong:
            console.error("the line is longer than \(LineReader.defaultLimit) bytes; it was skipped")
        case .signal(let number):
            if console.inputIsTerminal { console.out() }
            ending.withLock { $0 = $0 ?? .signal(number) }
        case .endOfInput:
            ending.withLock { $0 = $0 ?? .endOfInput }
        }
        return nil
    }
}
