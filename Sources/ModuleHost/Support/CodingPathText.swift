/// Writes a `Codable` coding path as a JSON path: `users[1].passwordHash`.
package enum CodingPathText {
    /// `codingPath` appended to `base` (`config` → `config.users[1].passwordHash`); with an empty base, the
    /// path alone (`users[1].passwordHash`). A key longer than ``DisplayText/keyLimit`` bytes is cut there, so that
    /// a long key above many problems does not repeat in full in each of them.
    package static func path(_ codingPath: [any CodingKey], from base: String = "") -> String {
        var text = base
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                let name = DisplayText.clipped(key.stringValue, to: DisplayText.keyLimit)
                text += text.isEmpty ? name : ".\(name)"
            }
        }
        return text
    }
}
