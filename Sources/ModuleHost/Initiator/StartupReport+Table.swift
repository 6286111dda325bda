import Foundation

extension StartupReport {
    /// The report as an aligned text table (operation, module, phase, state, waited ms, ran ms, error),
    /// followed by the critical path and totals; long cells are truncated to fit about 100 columns.
    package func renderTable(useColor: Bool = false) -> String {
        (operationTableLines(useColor: useColor) + [""] + summaryLines()).joined(separator: "\n") + "\n"
    }

    /// The line width the table aims to fit.
    static let tableWidth = 100

    /// The header, a rule and one line per operation; the state column coloured when `useColor`.
    private func operationTableLines(useColor: Bool) -> [String] {
        let columns = [
            TextTable.Column("OPERATION", maxWidth: 32), TextTable.Column("MODULE", maxWidth: 24),
            TextTable.Column("PHASE", maxWidth: 15), TextTable.Column("STATE", maxWidth: 9),
            TextTable.Column("WAIT MS", maxWidth: 9, alignsRight: true),
            TextTable.Column("RAN MS", maxWidth: 9, alignsRight: true), TextTable.Column("ERROR"),
        ]
        let rows = operations.map { record in
            [
                record.identifier, record.module?.rawValue ?? "-", record.phase.rawValue, record.state.rawValue,
                Self.formatMilliseconds(record.waited), Self.formatMilliseconds(record.ran),
                record.message.map { $0.replacingOccurrences(of: "\n", with: " ") } ?? "",
            ]
        }
        let stateColumn = 3
        let table = TextTable(columns: columns, rows: rows, lineWidth: Self.tableWidth)
        return table.lines(rule: true) { row, column, cell in
            useColor && column == stateColumn ? Self.colored(cell, for: operations[row].state) : cell
        }
    }

    /// The critical path, the counts per state, the phases' wall times and the totals.
    private func summaryLines() -> [String] {
        let path = criticalPath
        var lines = ["critical path: " + (path.isEmpty ? "(none)" : path.joined(separator: " -> "))]
        let totals = self.totals
        let counts = OperationRecord.State.allCases
            .filter { totals.count($0) > 0 }
            .map { "\(totals.count($0)) \($0.rawValue)" }
        lines.append("operations: \(operations.count)" + (counts.isEmpty ? "" : " (" + counts.joined(separator: ", ") + ")"))
        let phaseTimes = phases.compactMap { phase in
            phase.wallTime.map { "\(phase.phase.rawValue) \(Self.formatMilliseconds($0)) ms" }
        }
        if !phaseTimes.isEmpty { lines.append("phases: " + phaseTimes.joined(separator: ", ")) }
        var total = "total: blocking \(Self.formatMilliseconds(totals.blockingWallTime)) ms, "
            + "all \(Self.formatMilliseconds(totals.wallTime)) ms"
        if wasCancelled { total += ", cancelled" }
        total += isSuccessful ? ", successful" : ", NOT successful"
        lines.append(total)
        return lines
    }

    /// Milliseconds with one decimal, or "-" when absent.
    static func formatMilliseconds(_ duration: Duration?) -> String {
        guard let duration else { return "-" }
        return String(format: "%.1f", duration.milliseconds)
    }

    /// Wraps already-padded text in an ANSI colour chosen by state.
    private static func colored(_ text: String, for state: OperationRecord.State) -> String {
        let code: String
        switch state {
        case .succeeded: code = "32"
        case .failed, .timedOut: code = "31"
        case .skipped, .cancelled: code = "33"
        case .running: code = "36"
        case .pending: code = "2"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
