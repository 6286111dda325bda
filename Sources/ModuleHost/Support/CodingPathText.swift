/// Writes a `Codable` coding path as a JSON path: `users[1].passwordHash`.
package enum CodingPathText {
    /// `codingPath` appended to `base` (`config` → `config.users[1].passwordHash`); with an empty base, the
    /// path alone (`users[1].passwordHash`).
    package static func path(_ codingPath: [any CodingKey], from base: String = "") -> String {
        var text = base
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}
