/// Text from outside (a name a user typed, a name a module declared) made safe to print in a message.
package enum DisplayText {
    /// `text` with every character outside printable ASCII, and the backslash and `quote`, written as
    /// `\u{…}`, between two `quote`s: no terminal escape, line break or bidirectional override gets through.
    package static func quoted(_ text: String, with quote: Character) -> String {
        let escaped = text.unicodeScalars.map { scalar in
            let printable = (0x20..<0x7F).contains(scalar.value) && scalar != "\\" && Character(scalar) != quote
            return printable ? String(scalar) : "\\u{\(String(scalar.value, radix: 16))}"
        }
        return "\(quote)\(escaped.joined())\(quote)"
    }

    /// `text` with every control and format character (terminal escapes, line breaks, bidirectional overrides,
    /// zero-width characters) written as `\u{…}`; other characters, ASCII or not, stay as they are. For a line that
    /// holds text from outside, such as a key of a manifest.
    package static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        return text.unicodeScalars.map { isHidden($0) ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
    }

    /// ``printable(_:)`` line by line: line breaks (`\n`) and tabs stay, every other control or format character
    /// is written as `\u{…}`. For text a module prints, which may span lines but must not drive the terminal.
    package static func printableLines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isHidden($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        return text.unicodeScalars.map { scalar in
            isHidden(scalar) && scalar != "\n" && scalar != "\t" ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
    }

    /// `text` cut to at most `limit` bytes of UTF-8 (at a character's end) with "…" after it, or `text` itself when
    /// it fits: a key or a message from outside stays bounded in a report, however long it was.
    package static func clipped(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var kept = 0
        var end = text.startIndex
        for index in text.indices {
            let next = text.index(after: index)
            let size = text.utf8.distance(from: index, to: next)
            guard kept + size <= limit - 3 else { break }
            kept += size
            end = next
        }
        return text[..<end] + "…"
    }

    /// The longest a key from outside is written in a diagnostic's path.
    package static let keyLimit = 64

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
