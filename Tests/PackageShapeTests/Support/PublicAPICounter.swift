/// Counts the public declarations in Swift source, by the definition in docs/API.md:
///
/// outside function, accessor and closure bodies, and ignoring comments and string literals, one for each
/// - declaration (`func`, `init`, `subscript`, `var`, `let`, `typealias`, `associatedtype`, `struct`, `class`,
///   `enum`, `protocol`, `actor`, `macro`) whose modifiers include `public` or `open`;
/// - declaration directly inside a public protocol (requirements take no modifier);
/// - declaration directly inside a `public extension` without `private`, `fileprivate`, `internal` or `package`;
/// - enum case directly inside a public enum (`case a, b(Int)` is two).
///
/// Extensions themselves do not count. Declarations count as written: in each branch of an `#if`, and a
/// `public` member of a non-public type too. A declaration marked `@_spi(…)` is counted apart (``counts(in:)``):
/// a client that does not import the SPI cannot see it. So are declarations written with the `package` modifier:
/// what the package's other targets may use, which no client sees.
enum PublicAPICounter {
    static func count(in source: String) -> Int {
        counts(in: source).public
    }

    /// The declarations that count, and apart from them those marked `@_spi(…)` and those marked `package`.
    static func counts(in source: String) -> (public: Int, spi: Int, package: Int) {
        var walker = Walker(tokens: tokens(of: SwiftSource.code(source)))
        return walker.count()
    }

    fileprivate enum Token: Equatable {
        case word(String)  // identifiers and keywords, `@attribute`s and `#directive`s
        case symbol(Character)
        case newline
    }

    private static func tokens(of code: String) -> [Token] {
        var tokens: [Token] = []
        var word = ""
        func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "$" }
        for character in code {
            if isWordCharacter(character) || (word.isEmpty && (character == "@" || character == "#")) {
                word.append(character)
                continue
            }
            if !word.isEmpty { tokens.append(.word(word)); word = "" }
            if character == "\n" { tokens.append(.newline) }
            else if !character.isWhitespace && character != "`" { tokens.append(.symbol(character)) }
        }
        if !word.isEmpty { tokens.append(.word(word)) }
        return tokens
    }
}

private struct Walker {
    typealias Token = PublicAPICounter.Token

    /// What a pair of braces holds. Declarations are read only in containers, not in bodies.
    enum Container: Equatable {
        case file
        case type(keyword: String, isPublic: Bool)
        case `extension`(isPublic: Bool)
    }

    struct Scope {
        let container: Container?  // nil for a body: function, accessor, closure, `switch`…
        var brackets = 0           // open `(` and `[`: no declaration starts inside them
    }

    static let keywords: Set<String> = ["func", "init", "subscript", "var", "let", "case", "typealias", "associatedtype",
                                        "struct", "class", "enum", "protocol", "actor", "macro", "extension", "deinit"]
    static let modifiers: Set<String> = ["public", "open", "private", "fileprivate", "internal", "package", "static",
                                         "final", "override", "mutating", "nonmutating", "convenience", "required",
                                         "lazy", "weak", "unowned", "dynamic", "optional", "indirect", "nonisolated",
                                         "isolated", "consuming", "borrowing", "distributed", "prefix", "postfix", "infix"]

    let tokens: [Token]
    var index = 0
    var scopes = [Scope(container: .file)]
    /// The container the next `{` opens, set by a type or extension declaration.
    var pending: Container?
    var total = 0
    var spiTotal = 0
    var packageTotal = 0

    init(tokens: [Token]) { self.tokens = tokens }

    private func token(_ offset: Int = 0) -> Token? { index + offset < tokens.count ? tokens[index + offset] : nil }

    mutating func count() -> (public: Int, spi: Int, package: Int) {
        var atStatementStart = true
        while let current = token() {
            if atStatementStart, scopes[scopes.count - 1].brackets == 0, let container = scopes[scopes.count - 1].container,
               case .word = current {
                declaration(in: container)
                atStatementStart = false
                continue
            }
            index += 1
            atStatementStart = false
            switch current {
            case .symbol("{"):
                scopes.append(Scope(container: pending))
                pending = nil
                atStatementStart = true
            case .symbol("}"):
                if scopes.count > 1 { scopes.removeLast() }
                atStatementStart = true
            case .symbol("("), .symbol("["): scopes[scopes.count - 1].brackets += 1
            case .symbol(")"), .symbol("]"): scopes[scopes.count - 1].brackets = max(0, scopes[scopes.count - 1].brackets - 1)
            case .newline, .symbol(";"): atStatementStart = true
            default: break
            }
        }
        return (total, spiTotal, packageTotal)
    }

    /// Reads the attributes, modifiers and keyword of a declaration starting here, and records it.
    /// Stops at the first token that cannot be part of a declaration's head (an expression, `#if`, `where`…).
    private mutating func declaration(in container: Container) {
        var modifiers: Set<String> = []
        var isSPI = false
        while let current = token() {
            guard case .word(let word) = current else {
                if current == .newline { index += 1; continue }  // after an attribute on a line of its own
                return
            }
            if word.hasPrefix("@") {
                isSPI = isSPI || word == "@_spi"
                index += 1
                skipParentheses()
            } else if Self.modifiers.contains(word) || (word == "class" && isKeyword(token(1))) {
                index += 1
                if token() == .symbol("(") { skipParentheses() } else { modifiers.insert(word) }  // `private(set)`
            } else if Self.keywords.contains(word) {
                index += 1
                record(word, modifiers: modifiers, isSPI: isSPI, in: container)
                return
            } else {
                return
            }
        }
    }

    private mutating func record(_ keyword: String, modifiers: Set<String>, isSPI: Bool, in container: Container) {
        if modifiers.contains("package"), keyword != "extension" { packageTotal += 1 }
        let explicit = !modifiers.isDisjoint(with: ["public", "open"])
        let restricted = !modifiers.isDisjoint(with: ["private", "fileprivate", "internal", "package"])
        let isPublic = switch container {
        case .type(keyword: "protocol", isPublic: true): true
        case .extension(isPublic: true): !restricted
        default: explicit
        }
        switch keyword {
        case "extension":
            pending = .extension(isPublic: explicit)
        case "case":
            if container == .type(keyword: "enum", isPublic: true) { total += caseElements() }
        case "struct", "class", "enum", "protocol", "actor":
            pending = .type(keyword: keyword, isPublic: isPublic)
            if isPublic { total += 1 }
        default:
            if isPublic, isSPI { spiTotal += 1 } else if isPublic { total += 1 }
        }
    }

    /// The number of cases in `case a, b(x: Int, y: Int) = …`, read up to the end of the declaration.
    private mutating func caseElements() -> Int {
        var elements = 1, depth = 0
        while let current = token() {
            switch current {
            case .symbol("("), .symbol("["): depth += 1
            case .symbol(")"), .symbol("]"): depth -= 1
            case .symbol(",") where depth == 0: elements += 1
            case .newline where depth == 0 && tokens[index - 1] != .symbol(","), .symbol(";"), .symbol("{"), .symbol("}"):
                return elements
            default: break
            }
            index += 1
        }
        return elements
    }

    private func isKeyword(_ token: Token?) -> Bool {
        if case .word(let word)? = token { Self.keywords.contains(word) } else { false }
    }

    /// Skips a parenthesised group starting here, if there is one.
    private mutating func skipParentheses() {
        guard token() == .symbol("(") else { return }
        var depth = 0
        while let current = token() {
            index += 1
            if current == .symbol("(") { depth += 1 }
            if current == .symbol(")") { depth -= 1; if depth == 0 { return } }
        }
    }
}
