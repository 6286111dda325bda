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
}
