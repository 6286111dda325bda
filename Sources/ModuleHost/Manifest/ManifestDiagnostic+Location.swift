internal import ModuleHostJSON
extension ManifestDiagnostic {
    /// The 1-based line of the problem in the file, where known.
    public var line: Int? { location?.line }

    /// The 1-based column of the problem, counted in UTF-8 bytes from the start of the line, where known.
    public var column: Int? { location?.column }

    /// A position in a manifest file: 1-based line and column (in UTF-8 bytes), as compilers print them.
    package struct Location: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The 1-based line.
        package let line: Int
        /// The 1-based column, counted in UTF-8 bytes from the start of the line.
        package let column: Int

        /// Creates a location from a 1-based line and column.
        package init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        /// `line:column`, as in `modules.json:3:14`.
        package var description: String { "\(line):\(column)" }
    }
}

extension ManifestDiagnostic.Location {
    /// The manifest position of a place the JSON reader found.
    init(_ location: JSONLocation) {
        self.init(line: location.line, column: location.column)
    }
}
