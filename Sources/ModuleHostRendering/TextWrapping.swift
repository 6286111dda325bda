/// Text cut into lines for a terminal, and ANSI colour around it.
public enum TextWrapping {
    /// `text` cut into lines of at most `width` characters, at spaces where it can.
    ///
    /// - Parameters:
    ///   - text: The text, one line.
    ///   - width: The most characters a line may have (at least 1 is used).
    /// - Returns: The lines, none empty; no line for an empty text.
    public static func lines(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var rest = Substring(text)
        while rest.count > width {
            let window = rest.prefix(width)
            let cut = window.lastIndex(of: " ").map { rest.distance(from: rest.startIndex, to: $0) } ?? width
            let end = rest.index(rest.startIndex, offsetBy: max(1, cut))
            lines.append(String(rest[..<end]))
            rest = rest[end...].drop { $0 == " " }
        }
        if !rest.isEmpty { lines.append(String(rest)) }
        return lines
    }

    /// `text` in the ANSI colour `code` (`"32"` green, `"31"` red, `"33"` yellow, `"36"` cyan, `"2"` dim).
    ///
    /// - Parameters:
    ///   - text: The text, already padded.
    ///   - code: The SGR parameter of the colour.
    /// - Returns: The text between the colour's escape and the reset.
    public static func colored(_ text: String, code: String) -> String {
        "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
