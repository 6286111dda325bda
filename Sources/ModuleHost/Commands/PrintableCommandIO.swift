/// A command's terminal with every line the module writes, and every prompt it shows, made printable
/// (`DisplayText.printableLines`): the library's side of the rule that no module drives the terminal.
struct PrintableCommandIO: ModuleCommand.IO {
    let base: any ModuleCommand.IO

    func readLine(prompt: String) async -> String? {
        await base.readLine(prompt: DisplayText.printableLines(prompt))
    }

    func readSecret(prompt: String) async -> String? {
        await base.readSecret(prompt: DisplayText.printableLines(prompt))
    }

    func write(_ line: String) {
        base.write(DisplayText.printableLines(line))
    }

    var isInteractive: Bool { base.isInteractive }
}

extension ModuleCommand.Context {
    /// The same context, with the terminal wrapped in a ``PrintableCommandIO`` (once).
    func printable() -> ModuleCommand.Context {
        guard !(io is PrintableCommandIO) else { return self }
        return ModuleCommand.Context(arguments: arguments, manager: manager, io: PrintableCommandIO(base: io),
                                    wantsStructuredOutput: wantsStructuredOutput)
    }
}
