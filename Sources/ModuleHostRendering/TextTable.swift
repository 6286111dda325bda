/// An aligned plain-text table: the one table renderer of the library and of app-shell.
///
/// Every column is as wide as its widest cell (header included), capped at its `maxWidth`; cells longer than
/// their column are cut and end with "…". Columns are separated by two spaces; the last column is not
/// padded and trailing spaces are trimmed. With a `lineWidth`, the last column takes what the others leave of
/// it (at least `minimumLastWidth` characters).
public struct TextTable {
    /// One column: its header, how wide it may get and which side it is aligned to.
    public struct Column {
        public var header: String
        public var maxWidth: Int?
        public var alignsRight: Bool

        /// A column; `maxWidth` `nil` means no limit.
        public init(_ header: String, maxWidth: Int? = nil, alignsRight: Bool = false) {
            self.header = header
            self.maxWidth = maxWidth
            self.alignsRight = alignsRight
        }
    }

    public var columns: [Column]
    public var rows: [[String]]
    /// The line width the last column is fitted to, if any.
    public var lineWidth: Int?
    /// The least width the last column gets when fitted to `lineWidth`.
    public var minimumLastWidth = 20

    /// A table of `rows`, each with one cell per column (missing cells count as empty).
    public init(columns: [Column], rows: [[String]], lineWidth: Int? = nil) {
        self.columns = columns
        self.rows = rows
        self.lineWidth = lineWidth
    }

    /// The column widths.
    public func widths() -> [Int] {
        var widths = columns.indices.map { column in
            cellWidth(column, cap: columns[column].maxWidth)
        }
        if let lineWidth, let last = columns.indices.last {
            let used = widths.dropLast().reduce(0, +) + 2 * (columns.count - 1)
            widths[last] = cellWidth(last, cap: max(minimumLastWidth, lineWidth - used))
        }
        return widths
    }

    /// Whether every column but the last fits `lineWidth` at full width, with at least `minimumLastWidth` left
    /// for the last one (always, without a `lineWidth`).
    public var fitsLineWidth: Bool {
        guard let lineWidth else { return true }
        let natural = columns.indices.dropLast().map { cellWidth($0, cap: columns[$0].maxWidth) }
        return natural.reduce(0, +) + 2 * (columns.count - 1) + minimumLastWidth <= lineWidth
    }

    /// Whether some cell is cut at the widths the table renders with.
    public var cutsCells: Bool {
        let widths = widths()
        return rows.contains { row in row.indices.contains { $0 < widths.count && row[$0].count > widths[$0] } }
    }

    /// The header line, then (with `rule`) a line of dashes, then one line per row. `style` may decorate a
    /// padded cell of a row (by row and column index), e.g. with colour; it is not applied to the header.
    public func lines(rule: Bool = false, style: ((_ row: Int, _ column: Int, _ cell: String) -> String)? = nil) -> [String] {
        let widths = widths()
        var lines = [line(columns.map(\.header), widths: widths) { _, cell in cell }]
        if rule { lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        for (index, row) in rows.enumerated() {
            lines.append(line(row, widths: widths) { column, cell in style?(index, column, cell) ?? cell })
        }
        return lines
    }

    /// The width of `column`'s widest cell, header included, at most `cap`.
    private func cellWidth(_ column: Int, cap: Int?) -> Int {
        let widest = rows.reduce(columns[column].header.count) { max($0, column < $1.count ? $1[column].count : 0) }
        return cap.map { min($0, widest) } ?? widest
    }

    /// One line: each cell fitted to its width, aligned, decorated, then joined.
    private func line(_ cells: [String], widths: [Int], decorate: (Int, String) -> String) -> String {
        let parts = cells.enumerated().map { column, cell in
            let fitted = Self.truncated(cell, to: widths[column])
            let padding = String(repeating: " ", count: widths[column] - fitted.count)
            let padded: String
            if columns[column].alignsRight {
                padded = padding + fitted
            } else {
                padded = column == cells.count - 1 ? fitted : fitted + padding
            }
            return decorate(column, padded)
        }
        var text = parts.joined(separator: "  ")
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    /// Shortens `text` to `width` characters, ending with "…" when cut.
    private static func truncated(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        return String(text.prefix(width - 1)) + "…"
    }
}
