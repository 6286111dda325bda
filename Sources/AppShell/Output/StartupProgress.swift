import ModuleHost

/// Startup progress as it happens: on a terminal, updated in place (``ProgressBoard``); otherwise (under
/// `--verbose`) a plain log of the events, one line each.
struct StartupProgress {
    let console: Console

    /// Shows `initiator`'s events until startup finishes or the task is cancelled.
    func show(_ initiator: Initiator) async {
        var board = ProgressBoard(width: TerminalWidth.current()) { console.styled($0, $1, forError: true) }
        defer { console.diagnosticPartial(board.clear()) }
        for await event in initiator.events {
            if console.errorIsTerminal {
                console.diagnosticPartial(board.apply(event))
            } else {
                console.diagnostic(event.description)
            }
            if case .finished = event { return }
        }
    }
}
