import Testing

@testable import AppShell

/// The line a signal handler prints while the manifest is read is the one the console would print: the handler
/// holds it as a literal, since it may call nothing that builds a string.
@Suite("SignalExit")
struct SignalExitTests {
    @Test(arguments: [false, true])
    func theInterruptedLineIsTheConsolesErrorLine(colored: Bool) {
        let console = Console(outputIsTerminal: false, errorIsTerminal: true, inputIsTerminal: false, colorAllowed: colored)
        let literal = colored ? SignalExit.interruptedWhileReadingInColor : SignalExit.interruptedWhileReading
        #expect(literal.description == console.errorLine("interrupted while reading the manifest"))
    }
}
