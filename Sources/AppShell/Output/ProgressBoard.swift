import ModuleHost

/// Startup progress on a terminal, updated in place: one line per running operation, replaced by its result when
/// it finishes. ``apply(_:)`` returns the text to write (with cursor movements) for each event, so it is tested
/// without a terminal. With a `width`, every line fits it: a result too long is wrapped at spaces, and a running
/// line (which must stay one line, to be erased) is cut, ending in "…".
struct ProgressBoard {
    /// The operations running, in the order they started.
    private(set) var running: [String] = []
    /// How many running lines are on the screen below the last permanent line.
    private var shown = 0
    let style: (String, Console.Style) -> String
    /// The terminal's width in columns, if known.
    let width: Int?

    init(width: Int? = nil, style: @escaping (String, Console.Style) -> String = { text, _ in text }) {
        self.width = width
        self.style = style
    }

    /// The text that updates the screen for `event`: clear the running lines, print what is permanent (a phase's
    /// start, an operation's result), then the running lines again.
    mutating func apply(_ event: Initiator.Event) -> String {
        var permanent: [String] = []
        switch event {
        case .phaseStarted(let phase):
            permanent.append(style("» phase \(phase.rawValue)", .dim))
        case .operationStarted(let identifier, _):
            running.append(identifier)
        case .operationFinished(let record):
            running.removeAll { $0 == record.identifier }
            let succeeded = record.state == .succeeded
            let ran = record.ran.map { ["\(StartupReport.formatMilliseconds($0)) ms"] } ?? []
            var lines = wrapped([succeeded ? "✓" : "✗", record.identifier, record.state.rawValue] + ran)
            // The mark is styled after wrapping: its colour takes no columns.
            lines[0] = "  " + (succeeded ? style("✓", .green) : style("✗", .red)) + lines[0].dropFirst(3)
            permanent += lines
        case .phaseFinished, .finished:
            break
        }
        let erase = shown > 0 ? "\u{1B}[\(shown)A\u{1B}[J" : ""
        let live = running.map { style(cut("  … \($0)"), .dim) }
        shown = live.count
        return erase + (permanent + live).map { $0 + "\n" }.joined()
    }

    /// `words` (the mark first) joined by spaces into lines that fit ``width``, the first indented by two spaces
    /// and the rest by four; a word longer than a line has a line of its own.
    private func wrapped(_ words: [String]) -> [String] {
        var lines: [String] = []
        var current = "  " + (words.first ?? "")
        for word in words.dropFirst() {
            if let width, current.count > 3, current.count + 1 + word.count > width {
                lines.append(current)
                current = "    " + word
            } else {
                current += " " + word
            }
        }
        lines.append(current)
        return lines
    }

    /// `line` cut to ``width`` characters, ending in "…" where it was cut.
    private func cut(_ line: String) -> String {
        guard let width, line.count > width else { return line }
        return line.prefix(max(0, width - 1)) + "…"
    }

    /// The text that clears the running lines (when progress stops before every operation finished).
    mutating func clear() -> String {
        defer { shown = 0 }
        return shown > 0 ? "\u{1B}[\(shown)A\u{1B}[J" : ""
    }
}
