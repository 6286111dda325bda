/// A position in a JSON document: the 1-based line, and the 1-based column counted in UTF-8 bytes from the start of
/// the line, as compilers print them.
public struct JSONLocation: Hashable, Sendable {
    /// The 1-based line.
    public let line: Int
    /// The 1-based column, in UTF-8 bytes.
    public let column: Int

    /// A location at `line` and `column`.
    ///
    /// - Parameters:
    ///   - line: The 1-based line.
    ///   - column: The 1-based column, in UTF-8 bytes from the start of the line.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
