import Foundation

extension StartupReport {
    /// The report as an aligned text table (operation, module, phase, state, waited ms, ran ms, error),
    /// followed by the critical path and totals; long cells are truncated to fit about 100 columns.
    public func renderTable(useColor: Bool = false) -> String {
        let headers = ["OPERATION", "MODULE", "PHASE", "STATE", "WAIT MS", "RAN MS", "ERROR"]
        var caps = [32, 24, 15, 9, 9, 9, 0]
        let rows: [[String]] = operations.map { record in
            [
                record.identifier,
                record.module?.rawValue ?? "-",
                record.phase.rawValue,
                record.state.rawValue,
                Self.formatMilliseconds(record.waited),
                Self.formatMilliseconds(record.ran),
                record.message.map { $0.replacingOccurrences(of: "\n", with: " ") } ?? "",
            ]
        }
        var widths = headers.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < headers.count - 1 {
                widths[column] = min(caps[column], max(widths[column], cell.count))
            }
        }
        // The error column takes what is left of a 100-column line (at least 20 characters).
        let used = widths.dropLast().reduce(0, +) + 2 * (headers.count - 1)
        caps[headers.count - 1] = max(20, Self.tableWidth - used)
        for row in rows {
            widths[headers.count - 1] = min(caps[headers.count - 1], max(widths[headers.count - 1], row[headers.count - 1].count))
        }
        let rightAligned: Set<Int> = [4, 5]
        func line(_ cells: [String], state: OperationRecord.State?) -> String {
            var parts: [String] = []
            for (column, cell) in cells.enumerated() {
                let fitted = Self.truncated(cell, to: widths[column])
                let isLast = column == cells.count - 1
                var padded: String
                if rightAligned.contains(column) {
                    padded = String(repeating: " ", count: widths[column] - fitted.count) + fitted
                } else {
                    padded = isLast ? fitted : fitted + String(repeating: " ", count: widths[column] - fitted.count)
                }
                if column == 3, useColor, let state { padded = Self.colored(padded, for: state) }
                parts.append(padded)
            }
            var text = parts.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }

        var lines = [line(headers, state: nil)]
        lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        for (row, record) in zip(rows, operations) { lines.append(line(row, state: record.state)) }
        lines.append("")
        lines.append("critical path: " + (criticalPath.isEmpty ? "(none)" : criticalPath.joined(separator: " -> ")))
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
        return lines.joined(separator: "\n") + "\n"
    }

    /// The line width the table aims to fit.
    static let tableWidth = 100

    /// Milliseconds with one decimal, or "-" when absent.
    static func formatMilliseconds(_ duration: Duration?) -> String {
        guard let duration else { return "-" }
        return String(format: "%.1f", duration.milliseconds)
    }

    /// Shortens `text` to `width` characters, ending with "…" when cut.
    private static func truncated(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        return String(text.prefix(width - 1)) + "…"
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
