import ModuleHost

/// Startup progress on a terminal, updated in place: one line per running operation, replaced by its result when
/// it finishes. ``apply(_:)`` returns the text to write (with cursor movements) for each event, so it is tested
/// without a terminal.
struct ProgressBoard {
    /// The operations running, in the order they started.
    private(set) var running: [String] = []
    /// How many running lines are on the screen below the last permanent line.
    private var shown = 0
    let style: (String, Console.Style) -> String

    init(style: @escaping (String, Console.Style) -> String = { text, _ in text }) {
        self.style = style
    }

    /// The text that updates the screen for `event`: clear the running lines, print what is permanent (a phase's
    /// start, an operation's result), then the running lines again.
    mutating func apply(_ event: InitiatorEvent) -> String {
        var permanent: [String] = []
        switch event {
        case .phaseStarted(let phase):
            permanent.append(style("» phase \(phase.rawValue)", .dim))
        case .operationStarted(let identifier, _):
            running.append(identifier)
        case .operationFinished(let record):
            running.removeAll { $0 == record.identifier }
            let mark = record.state == .succeeded ? style("✓", .green) : style("✗", .red)
            let ran = record.ran.map { " \(StartupReport.formatMilliseconds($0)) ms" } ?? ""
            permanent.append("  \(mark) \(record.identifier) \(record.state.rawValue)\(ran)")
        case .phaseFinished, .finished:
            break
        }
        let erase = shown > 0 ? "\u{1B}[\(shown)A\u{1B}[J" : ""
        let live = running.map { style("  … \($0)", .dim) }
        shown = live.count
        return erase + (permanent + live).map { $0 + "\n" }.joined()
    }

    /// The text that clears the running lines (when progress stops before every operation finished).
    mutating func clear() -> String {
        defer { shown = 0 }
        return shown > 0 ? "\u{1B}[\(shown)A\u{1B}[J" : ""
    }
}
