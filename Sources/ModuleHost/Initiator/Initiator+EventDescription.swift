extension Initiator.Event: CustomStringConvertible {
    /// One line for a log: `phase asyncHigh started`, `operation "db.open" started (phase high)`, an
    /// operation's record (see ``StartupReport/OperationRecord/description``), `phase asyncHigh finished in 3.1 ms`, or
    /// `startup finished in 40.2 ms: 4 succeeded, 1 skipped`.
    public var description: String {
        switch self {
        case .phaseStarted(let phase):
            "phase \(phase.rawValue) started"
        case .operationStarted(let identifier, let phase):
            "operation \(DisplayText.quoted(identifier, with: "\"")) started (phase \(phase.rawValue))"
        case .operationFinished(let record):
            record.description
        case .phaseFinished(let phase):
            "phase \(phase.rawValue) finished"
        case .finished(let report):
            report.summary
        }
    }
}

extension StartupReport {
    /// `startup finished in 40.2 ms: 4 succeeded, 1 skipped` (states with no operation left out), or
    /// `startup was cancelled: …`.
    var summary: String {
        let totals = totals
        let counts = StartupReport.OperationRecord.State.allCases
            .filter { totals.count($0) > 0 }
            .map { "\(totals.count($0)) \(Self.word(for: $0))" }
        let time = totals.wallTime.map { " in \(DisplayText.duration($0))" } ?? ""
        let head = wasCancelled ? "startup was cancelled\(time)" : "startup finished\(time)"
        return counts.isEmpty ? "\(head): no operations" : "\(head): \(counts.joined(separator: ", "))"
    }

    /// How a state reads after a count ("3 succeeded", "1 timed out").
    private static func word(for state: StartupReport.OperationRecord.State) -> String {
        switch state {
        case .timedOut: "timed out"
        default: state.rawValue
        }
    }
}
