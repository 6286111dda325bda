#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import ModuleHostRendering

extension StartupReport: CustomStringConvertible {
    /// The report as ``renderTable(useColor:width:)`` prints it without a width: nothing cut.
    public var description: String { renderTable(width: nil) }

    /// The report as an aligned text table (operation, module, phase, state, waited ms, ran ms, error),
    /// followed by the critical path and totals.
    ///
    /// - Parameters:
    ///   - useColor: Whether the state column is coloured with ANSI escapes.
    ///   - width: The line width to fit, or `nil` to cut nothing.
    /// - Returns: The report's lines, each ending with a newline.
    ///
    /// With a `width`, the error column takes what the others leave (cut cells end with "…", and a line says where
    /// to read them in full); where the other columns do not fit with 12 columns to spare, each operation is a
    /// block of short lines instead, nothing cut. Identifiers are never cut. Without a width nothing is cut.
    ///
    /// ```swift
    /// let report = await initiator.start()
    /// print(report.renderTable(width: 80))
    /// ```
    public func renderTable(useColor: Bool = false, width: Int? = 100) -> String {
        let table = operationTable(width: width)
        let body = table.fitsLineWidth ? operationTableLines(table, useColor: useColor) : operationBlocks(width: width ?? 80)
        let note = table.fitsLineWidth && table.cutsCells ? TextWrapping.lines("(errors cut to fit \(width ?? 0) columns; `startup --full` or --json shows them in full)", width: width ?? 80) : []
        let summary = summaryLines().flatMap { line in width.map { TextWrapping.lines(line, width: $0) } ?? [line] }
        return (body + note + [""] + summary).joined(separator: "\n") + "\n"
    }

    private func operationTable(width: Int?) -> TextTable {
        let columns = [
            TextTable.Column("OPERATION"), TextTable.Column("MODULE"), TextTable.Column("PHASE"), TextTable.Column("STATE"),
            TextTable.Column("WAIT MS", alignsRight: true), TextTable.Column("RAN MS", alignsRight: true), TextTable.Column("ERROR"),
        ]
        let rows = operations.map { record in
            [
                record.identifier, record.module?.rawValue ?? "-", record.phase.rawValue, record.state.rawValue,
                Self.formatMilliseconds(record.waited), Self.formatMilliseconds(record.ran),
                record.message.map { $0.replacing("\n", with: " ") } ?? "",
            ]
        }
        var table = TextTable(columns: columns, rows: rows, lineWidth: width)
        table.minimumLastWidth = 12
        return table
    }

    /// The header, a rule and one line per operation; the state column coloured when `useColor`.
    private func operationTableLines(_ table: TextTable, useColor: Bool) -> [String] {
        let stateColumn = 3
        return table.lines(rule: true) { row, column, cell in
            useColor && column == stateColumn ? Self.colored(cell, for: operations[row].state) : cell
        }
    }

    /// For narrow terminals: each operation as a few short lines, its error wrapped to `width`.
    private func operationBlocks(width: Int) -> [String] {
        operations.flatMap { record -> [String] in
            var lines = ["\(record.identifier): \(record.state.rawValue)"]
            lines.append("  \(record.module?.rawValue ?? "-"), \(record.phase.rawValue)")
            lines.append("  waited \(Self.formatMilliseconds(record.waited)) ms, ran \(Self.formatMilliseconds(record.ran)) ms")
            if let message = record.message?.replacing("\n", with: " ") {
                lines.append("  error: " + message)
            }
            return lines.flatMap { line in
                let indent = line.hasPrefix("  ") ? "  " : ""
                return TextWrapping.lines(String(line.dropFirst(indent.count)), width: max(10, width - indent.count)).map { indent + $0 }
            }
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
    package static func formatMilliseconds(_ duration: Duration?) -> String {
        guard let duration else { return "-" }
        let tenths = Int64((duration.milliseconds * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
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
        return TextWrapping.colored(text, code: code)
    }
}
