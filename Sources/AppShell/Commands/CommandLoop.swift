import ModuleHost
import ModuleHostState

/// Serves commands after startup: a prompt on a terminal, one command per line otherwise.
///
/// In a script, the line after a command that declares ``ModuleCommand/readsSecretLine`` is its secret, always: if
/// the command stopped before reading it, the loop reads it with echo off and drops it, so a password line is never
/// run as a command nor shown.
struct CommandLoop {
    let runtime: HostRuntime
    let events: ShellEvents
    let invocation: Invocation

    /// How the loop ended.
    enum Ending: Sendable, Equatable {
        case quit, endOfInput, signal(Int32)
    }

    /// Runs until `quit`, end of input or a signal. Returns how it ended and, for a scripted session, the exit
    /// status of the first command that failed (`.ok` when none did; an interactive session always gives `.ok`).
    func run() async -> (ending: Ending, status: ExitCode) {
        let console = runtime.console
        let interactive = console.inputIsTerminal
        let input = ShellInput(events: events)
        let io = ShellIO(input: input, console: console)
        let commands = ShellCommands(runtime: runtime, invocation: invocation)
        var status = ExitCode.ok
        defer { events.takeInterrupts(false) }
        if interactive {
            startEditing()
            // Ctrl-C typed at the terminal now interrupts the command, not the shell, until the prompt ends.
            events.takeInterrupts()
            console.out("Type 'help' for commands.")
        }
        while true {
            if interactive, !LineEditor.standardInput.prepare(prompt: Self.prompt, keepsHistory: true) {
                console.outPartial(console.styled(Self.prompt, .bold))
            }
            events.forgetInterrupt()
            let line: String
            switch await input.next() {
            case .line(let text): line = text
            case .interrupted:
                // Ctrl-C at the prompt: the line is dropped and the prompt shown again.
                continue
            case .tooLong:
                // Never echoed: it may hold anything, a password included.
                let number = interactive ? "" : "line \(await input.linesRead): "
                console.error("\(number)longer than \(LineReader.defaultLimit) bytes; skipped")
                if !interactive, status == .ok { status = .usage }
                continue
            case .signal(let number):
                if interactive { console.out() }
                return (.signal(number), status)
            case .endOfInput:
                if interactive { console.out() }
                return (.endOfInput, status)
            }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let name = words.first, !name.hasPrefix("#") else { continue }
            if name == "quit" || name == "exit" { return (.quit, status) }
            let arguments = Array(words.dropFirst())
            let scriptLine = interactive ? nil : await input.linesRead
            let secretsBefore = io.secretsRead
            switch await race(name, interactive: interactive, { await commands.run(name, arguments, io: io, line: scriptLine) }) {
            case .signal(let number):
                if interactive { console.out() }
                return (.signal(number), status)
            case .interrupted:
                console.out("\ninterrupted")
                continue
            case .finished(let result):
                if !interactive, status == .ok { status = result }
            }
            if let ending = io.interruption { return (ending, status) }
            if !interactive, io.secretsRead == secretsBefore, readsSecretLine(name), let ending = await dropSecret(input) {
                return (ending, status)
            }
        }
    }

    /// Whether the module command `name` declares that the script's next line is its secret.
    private func readsSecretLine(_ name: String) -> Bool {
        runtime.manager.moduleCommands().contains { $0.command.name == name && $0.command.readsSecretLine }
    }

    /// Reads the script's secret line that its command did not read, with echo off, and drops it; how input ended,
    /// if it did.
    private func dropSecret(_ input: ShellInput) async -> Ending? {
        switch await input.next(echo: false) {
        case .signal(let number): .signal(number)
        case .endOfInput: .endOfInput
        case .line, .tooLong, .interrupted: nil
        }
    }

    static let prompt = "app-shell> "

    /// Runs the command `name` (`body`), racing the signals and, at the interactive prompt, Ctrl-C.
    private func race(_ name: String, interactive: Bool, _ body: @escaping @Sendable () async -> ExitCode) async -> CommandRace.Outcome {
        let console = runtime.console
        let interrupts: CommandRace.Interrupts? = interactive ? { [events] in events.setInterruptHandler($0) } : nil
        return await CommandRace.run(signals: events.setCommandSignalHandler, interrupts: interrupts, stillRunning: {
            console.error("\(DisplayText.quoted(name, with: "'")) is still running: it does not stop when interrupted; Ctrl-C again ends the shell")
        }, body)
    }


    /// Turns on line editing, with the history file in the state directory and Tab completing the commands;
    /// says why not under `--verbose` when libedit cannot be loaded.
    private func startEditing() {
        let stateDirectory = (try? runtime.manager.bridge.resolveIfProvided(HostEnvironment.self))?.stateDirectory
        let history = stateDirectory.map(PromptHistory.init(stateDirectory:))
        let editing = LineEditor.standardInput.activate(history: history, completions: .shell(runtime.manager))
        if !editing, invocation.verbose { runtime.console.diagnostic("line editing is off: libedit could not be loaded") }
    }
}
