/// Swift source read as code: which characters are code (not in a string or a comment), matched brackets, and the
/// array a call's labelled argument opens. It is read as Unicode scalars, as the compiler reads it (as characters, a
/// quote followed by a combining mark would be no quote).
struct SwiftCode {
    let characters: [Unicode.Scalar]
    /// Whether each character is code.
    let isCode: [Bool]

    /// Reads `text` as the compiler does: line comments, block comments (which nest), and string literals, raw
    /// (`#"…"#`) or not, single- or multi-line, with interpolations (`\(…)`, which may hold strings and comments of
    /// their own).
    ///
    /// - Throws: `AddModuleError` for a comment or string that is not closed: the file is not read as the compiler
    ///   would read it, so it is not edited.
    init(_ text: String) throws {
        let characters = Array(text.unicodeScalars)
        self.characters = characters
        var mask = [Bool](repeating: true, count: characters.count)
        var index = 0
        while index < characters.count {
            guard let end = try Self.endOfCommentOrString(in: characters, at: index) else {
                index += 1
                continue
            }
            // A string's quotes stay code, so a call's `name: "…"` can be matched; its contents and comments do not.
            let first = characters[index...].firstIndex { $0 != "#" } ?? index
            let isString = characters[first] == "\""
            for offset in index..<end where !(isString && (offset == first || offset == end - 1)) { mask[offset] = false }
            index = end
        }
        isCode = mask
    }

    private static func at(_ characters: [Unicode.Scalar], _ offset: Int, _ text: String) -> Bool {
        let expected = Array(text.unicodeScalars)
        return offset + expected.count <= characters.count && Array(characters[offset..<offset + expected.count]) == expected
    }

    /// One past the end of the comment or string literal that starts at `index`; `nil` when none starts there.
    private static func endOfCommentOrString(in characters: [Unicode.Scalar], at index: Int) throws -> Int? {
        if at(characters, index, "//") { return characters[index...].firstIndex(where: \.isNewline) ?? characters.count }
        if at(characters, index, "/*") {
            var depth = 0, cursor = index
            while cursor < characters.count {
                if at(characters, cursor, "/*") {
                    depth += 1
                    cursor += 2
                } else if at(characters, cursor, "*/") {
                    depth -= 1
                    cursor += 2
                    if depth == 0 { return cursor }
                } else {
                    cursor += 1
                }
            }
            throw AddModuleError("Package.swift has a block comment that is not closed; nothing was written")
        }
        var cursor = index
        while cursor < characters.count, characters[cursor] == "#" { cursor += 1 }
        guard cursor < characters.count, characters[cursor] == "\"" else { return nil }
        let hashes = String(repeating: "#", count: cursor - index)
        let multiline = at(characters, cursor, "\"\"\"")
        let close = (multiline ? "\"\"\"" : "\"") + hashes, escape = "\\" + hashes
        cursor += multiline ? 3 : 1
        while cursor < characters.count {
            if at(characters, cursor, close) { return cursor + close.count }
            if !multiline, characters[cursor].isNewline { break }
            if at(characters, cursor, escape) {
                cursor += escape.count
                if cursor < characters.count, characters[cursor] == "(" {
                    cursor = try endOfInterpolation(in: characters, openedAt: cursor)
                } else {
                    cursor += 1
                }
                continue
            }
            cursor += 1
        }
        throw AddModuleError("Package.swift has a string literal that is not closed; nothing was written")
    }

    /// One past the `)` that closes the interpolation opened at `open`.
    private static func endOfInterpolation(in characters: [Unicode.Scalar], openedAt open: Int) throws -> Int {
        var depth = 0, cursor = open
        while cursor < characters.count {
            if let end = try endOfCommentOrString(in: characters, at: cursor) {
                cursor = end
                continue
            }
            if characters[cursor] == "(" { depth += 1 }
            if characters[cursor] == ")" {
                depth -= 1
                if depth == 0 { return cursor + 1 }
            }
            cursor += 1
        }
        throw AddModuleError("Package.swift has an interpolation that is not closed; nothing was written")
    }

    /// The offset of the `(` of the first call whose text matches `pattern` (ending in its `(` or inside its first
    /// argument) and that starts in code.
    func call(matching pattern: String) -> Int? {
        let text = String(String.UnicodeScalarView(characters))
        var search = text.startIndex..<text.endIndex
        while let found = text.range(of: pattern, options: .regularExpression, range: search) {
            let start = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: found.lowerBound)
            if isCode[start], let open = characters[start...].firstIndex(of: "("), isCode[open] { return open }
            search = found.upperBound..<text.endIndex
        }
        return nil
    }

    /// The `[` and `]` of the array that the call opened at `open` gives as its argument `label:` (at the call's own
    /// level, not inside a nested call).
    func argumentArray(_ label: String, ofCallOpenedAt open: Int) -> (open: Int, close: Int)? {
        let name = Array(label.unicodeScalars)
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

extension Unicode.Scalar {
    /// A line feed or a carriage return, the line ends of Swift source.
    var isNewline: Bool { self == "\n" || self == "\r" }
    var isWhitespace: Bool { properties.isWhitespace }
    var isLetter: Bool { properties.isAlphabetic }
    var isNumber: Bool { properties.numericType != nil }
}
