import Foundation

/// Just enough lexing of Swift source for these tests: comments and string literals removed, imports found.
enum SwiftSource {
    /// `source` with comments (`//`, `///`, nested `/* */`) and the contents of string literals (single-line,
    /// multi-line, raw, with interpolations) removed; every literal becomes `""` and every newline is kept,
    /// so line numbers still hold. Regex literals are not recognised.
    static func code(_ source: String) -> String {
        var lexer = Lexer(bytes: Array(source.utf8))
        lexer.code(inInterpolation: false)
        return String(decoding: lexer.output, as: UTF8.self)
    }

    struct Import: Sendable, Equatable, CustomStringConvertible {
        /// The file, as given to ``imports(inFilesUnder:of:)``'s caller (relative to the package root).
        let file: String
        let line: Int
        let module: String
        /// The declaration's access level (`internal`, `public`…), or `nil` when it names none.
        var access: String? = nil
        /// Whether the import is `internal`, `fileprivate` or `private`: nothing of the module is in this one's interface.
        var isInternal: Bool { ["internal", "fileprivate", "private"].contains(access ?? "") }
        var description: String { "\(file):\(line) imports \(module)" }
    }

    /// The module imported by an import declaration: any attributes (`@testable`, `@_exported`,
    /// `@preconcurrency`, `@_spi(X)`…), an optional access level, `import`, an optional kind
    /// (`struct`, `func`…), then the module, the first component of the path.
    private static var importDeclaration: Regex<(Substring, access: Substring?, module: Substring)> {
        #/(?:^|;)\s*(?:@[A-Za-z_]\w*(?:\([^()]*\))?\s*)*(?:(?<access>public|package|internal|fileprivate|private|open)\s+)?import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(?<module>[A-Za-z_]\w*)/#
            .anchorsMatchLineEndings()
    }

    /// The imports in a file's source text.
    static func imports(in source: String, file: String) -> [Import] {
        let code = code(source)
        return code.matches(of: importDeclaration).map { match in
            let line = code[..<match.output.module.startIndex].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            return Import(file: file, line: line, module: String(match.output.module), access: match.output.access.map(String.init))
        }
    }

    /// The `.swift` files under `folder` (relative to `root`), recursively, as sorted relative paths.
    static func files(under folder: String, root: URL) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: base.path])
        }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { "\(folder)/\($0)" }
    }

    /// Every import in the `.swift` files under `folder` (relative to `root`).
    static func imports(inFilesUnder folder: String, root: URL) throws -> [Import] {
        try files(under: folder, root: root).flatMap { file in
            imports(in: try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8), file: file)
        }
    }
}

/// Copies code through and drops comments and the contents of string literals.
private struct Lexer {
    let bytes: [UInt8]
    var index = 0
    var output: [UInt8] = []
    /// False inside a string literal, interpolations included: only newlines are copied then.
    var copying = true

    private static let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), quote = UInt8(ascii: "\""),
        hash = UInt8(ascii: "#"), backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n"),
        open = UInt8(ascii: "("), close = UInt8(ascii: ")")

    init(bytes: [UInt8]) { self.bytes = bytes }

    private func byte(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private func hasPrefix(_ byte: UInt8, count: Int, at offset: Int = 0) -> Bool {
        (0..<count).allSatisfy { self.byte(offset + $0) == byte }
    }

    private mutating func copy(_ byte: UInt8) {
        if copying || byte == Self.newline { output.append(byte) }
    }

    /// Code to the end, or in an interpolation to (and including) the `)` that closes it.
    mutating func code(inInterpolation: Bool) {
        var depth = 0
        while let current = byte() {
            if current == Self.slash, byte(1) == Self.slash {
                while let next = byte(), next != Self.newline { index += 1 }
            } else if current == Self.slash, byte(1) == Self.star {
                blockComment()
            } else if current == Self.quote {
                string(hashes: 0)
            } else if current == Self.hash, let hashes = rawStringHashes() {
                string(hashes: hashes)
            } else {
                index += 1
                if inInterpolation, current == Self.close {
                    if depth == 0 { return }
                    depth -= 1
                } else if inInterpolation, current == Self.open {
                    depth += 1
                }
                copy(current)
            }
        }
    }

    /// The number of `#` before a `"`, if a raw string starts here.
    private func rawStringHashes() -> Int? {
        var count = 0
        while byte(count) == Self.hash { count += 1 }
        return byte(count) == Self.quote ? count : nil
    }

    /// A block comment, nested ones included, copied as a space and its newlines.
    private mutating func blockComment() {
        index += 2
        var depth = 1
        copy(UInt8(ascii: " "))
        while let current = byte(), depth > 0 {
            if current == Self.slash, byte(1) == Self.star { depth += 1; index += 2 }
            else if current == Self.star, byte(1) == Self.slash { depth -= 1; index += 2 }
            else { if current == Self.newline { copy(current) }; index += 1 }
        }
    }

    /// A string literal opened by `hashes` `#` and one or three quotes, copied as `""` and its newlines.
    private mutating func string(hashes: Int) {
        index += hashes
        let quotes = hasPrefix(Self.quote, count: 3) ? 3 : 1
        index += quotes
        let wasCopying = copying
        if wasCopying { output.append(Self.quote) }
        copying = false
        while let current = byte() {
            if current == Self.backslash, hasPrefix(Self.hash, count: hashes, at: 1) {
                index += 1 + hashes
                if byte() == Self.open {
                    index += 1
                    code(inInterpolation: true)
                } else if let escaped = byte() {
                    copy(escaped)
                    index += 1
                }
            } else if current == Self.quote, hasPrefix(Self.quote, count: quotes), hasPrefix(Self.hash, count: hashes, at: quotes) {
                index += quotes + hashes
                break
            } else if current == Self.newline, quotes == 1 {
                break  // unterminated single-line literal: leave the newline to the code
            } else {
                copy(current)
                index += 1
            }
        }
        copying = wasCopying
        if wasCopying { output.append(Self.quote) }
    }
}
