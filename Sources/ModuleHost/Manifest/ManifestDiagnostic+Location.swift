extension ManifestDiagnostic {
    /// A position in a manifest file: 1-based line and column (in UTF-8 bytes), as compilers print them.
    public struct Location: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The 1-based line.
        public let line: Int
        /// The 1-based column, counted in UTF-8 bytes from the start of the line.
        public let column: Int

        /// Creates a location from a 1-based line and column.
        package init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        /// `line:column`, as in `modules.json:3:14`.
        public var description: String { "\(line):\(column)" }
    }
}
