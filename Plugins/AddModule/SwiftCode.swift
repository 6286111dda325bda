/// Swift source read as code: which characters are code (not in a string or a comment), matched brackets, and the
/// array a call's labelled argument opens.
struct SwiftCode {
    let characters: [Character]
    /// Whether each character is code.
    let isCode: [Bool]

    init(_ text: String) {
        let characters = Array(text)
        self.characters = characters
        var mask = [Bool](repeating: true, count: characters.count)
        var index = 0
        func at(_ offset: Int, _ text: String) -> Bool {
            let expected = Array(text)
            return offset + expected.count <= characters.count && Array(characters[offset..<offset + expected.count]) == expected
        }
        while index < characters.count {
            let end: Int
            if at(index, "//") {
                end = characters[index...].firstIndex(of: "\n") ?? characters.count
            } else if at(index, "/*") {
                var cursor = index + 2
                while cursor < characters.count, !at(cursor, "*/") { cursor += 1 }
                end = min(cursor + 2, characters.count)
            } else if at(index, "\"\"\"") {
                var cursor = index + 3
                while cursor < characters.count, !at(cursor, "\"\"\"") { cursor += characters[cursor] == "\\" ? 2 : 1 }
                end = min(cursor + 3, characters.count)
            } else if characters[index] == "\"" {
                var cursor = index + 1
                while cursor < characters.count, characters[cursor] != "\"", characters[cursor] != "\n" { cursor += characters[cursor] == "\\" ? 2 : 1 }
                end = min(cursor + 1, characters.count)
            } else {
                index += 1
                continue
            }
            // A string's quotes stay code, so a call's `name: "…"` can be matched; its contents and comments do not.
            let isString = characters[index] == "\""
            for offset in index..<end where !(isString && (offset == index || offset == end - 1)) { mask[offset] = false }
            index = end
        }
        isCode = mask
    }

    /// The offset of the `(` of the first call whose text matches `pattern` (ending in its `(` or inside its first
    /// argument) and that starts in code.
    func call(matching pattern: String) -> Int? {
        let text = String(characters)
        var search = text.startIndex..<text.endIndex
        while let found = text.range(of: pattern, options: .regularExpression, range: search) {
            let start = text.distance(from: text.startIndex, to: found.lowerBound)
            if isCode[start], let open = characters[start...].firstIndex(of: "("), isCode[open] { return open }
            search = found.upperBound..<text.endIndex
        }
        return nil
    }

    /// The `[` and `]` of the array that the call opened at `open` gives as its argument `label:` (at the call's own
    /// level, not inside a nested call).
    func argumentArray(_ label: String, ofCallOpenedAt open: Int) -> (open: Int, close: Int)? {
        let name = Array(label)
        var depth = 0, index = open + 1
        while index < characters.count {
            defer { index += 1 }
            guard isCode[index] else { continue }
            switch characters[index] {
            case "(", "[", "{": depth += 1
            case ")", "]", "}":
                if depth == 0 { return nil }
                depth -= 1
            default:
                guard depth == 0, index + name.count < characters.count, Array(characters[index..<index + name.count]) == name,
                      index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber || characters[index - 1] == "_") else { continue }
                var cursor = index + name.count
                while cursor < characters.count, characters[cursor].isWhitespace { cursor += 1 }
                guard cursor < characters.count, characters[cursor] == ":" else { continue }
                cursor += 1
                while cursor < characters.count, characters[cursor].isWhitespace { cursor += 1 }
                guard cursor < characters.count, characters[cursor] == "[", let close = closing(cursor) else { continue }
                return (cursor, close)
            }
        }
        return nil
    }

    /// The bracket that closes the one at `open`.
    private func closing(_ open: Int) -> Int? {
        var depth = 0
        for index in open..<characters.count where isCode[index] {
            switch characters[index] {
            case "(", "[", "{": depth += 1
            case ")", "]", "}":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }
}
