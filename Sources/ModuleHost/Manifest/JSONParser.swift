/// A strict JSON parser (RFC 8259) that records the line and column of every value.
///
/// Foundation's parsers lose positions after parsing, so manifest diagnostics could not point at the
/// offending field. This parser keeps them, bounds nesting depth so hostile input cannot exhaust the stack,
/// and reports the first syntax error with its position.
struct JSONParser {
    /// A syntax error with the position where parsing stopped.
    struct SyntaxError: Error, Sendable {
        let message: String
        let location: SourceLocation
    }

    /// The deepest nesting accepted; manifests need a handful of levels, configs a few more.
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses one JSON document; trailing non-whitespace is an error.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.offset = 3
            parser.lineStart = 3
        }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.offset < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the document")
        }
        return value
    }

    private var location: SourceLocation {
        SourceLocation(line: line, column: offset - lineStart + 1)
    }

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(message: message, location: location)
    }

    private func describeCurrent() -> String {
        guard offset < bytes.count else { return "end of file" }
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F {
            return "character '\(Character(Unicode.Scalar(byte)))'"
        }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0D:
                offset += 1
            case 0x0A:
                offset += 1
                line += 1
                lineStart = offset
            default:
                return
            }
        }
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONValue {
        guard offset < bytes.count else { throw error("expected a value, found end of file") }
        let start = offset
        let startLocation = location
        let kind: JSONValue.Kind
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            kind = try parseObject()
        case UInt8(ascii: "["):
            kind = try parseArray()
        case UInt8(ascii: "\""):
            kind = .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            kind = .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            kind = .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            kind = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            kind = try parseNumber()
        default:
            throw error("expected a value, found \(describeCurrent())")
        }
        return JSONValue(kind: kind, location: startLocation, byteRange: start..<offset)
    }

    private mutating func enterContainer() throws(SyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("nesting deeper than \(Self.maximumDepth) levels")
        }
        offset += 1
        skipWhitespace()
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONValue.Kind {
        try enterContainer()
        var members: [JSONValue.Member] = []
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            depth -= 1
            return .object(members)
        }
        while true {
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                throw error("expected a quoted field name, found \(describeCurrent())")
            }
            let keyLocation = location
            let key = try parseString()
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
                throw error("expected ':' after field name \"\(key)\", found \(describeCurrent())")
            }
            offset += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(.init(key: key, keyLocation: keyLocation, value: value))
            skipWhitespace()
            guard offset < bytes.count else { throw error("expected ',' or '}', found end of file") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                skipWhitespace()
                continue
            }
            if bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                depth -= 1
                return .object(members)
            }
            throw error("expected ',' or '}' in object, found \(describeCurrent())")
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONValue.Kind {
        try enterContainer()
        var elements: [JSONValue] = []
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            guard offset < bytes.count else { throw error("expected ',' or ']', found end of file") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                skipWhitespace()
                continue
            }
            if bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                depth -= 1
                return .array(elements)
            }
            throw error("expected ',' or ']' in array, found \(describeCurrent())")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(SyntaxError) {
        let expected = Array(literal.utf8)
        guard bytes[offset...].starts(with: expected) else {
            throw error("expected a value, found \(describeCurrent())")
        }
        offset += expected.count
    }

    private mutating func parseNumber() throws(SyntaxError) -> JSONValue.Kind {
        let start = offset
        var isInteger = true
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        guard offset < bytes.count, isDigit(bytes[offset]) else {
            throw error("expected a digit in number, found \(describeCurrent())")
        }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
        } else {
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            isInteger = false
            offset += 1
            guard offset < bytes.count, isDigit(bytes[offset]) else {
                throw error("expected a digit after '.', found \(describeCurrent())")
            }
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            isInteger = false
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                offset += 1
            }
            guard offset < bytes.count, isDigit(bytes[offset]) else {
                throw error("expected a digit in exponent, found \(describeCurrent())")
            }
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw SyntaxError(message: "number \(text) is out of range", location: location)
        }
        return .number(value, isInteger: isInteger)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Parses a string in time linear in its length: raw runs and escapes go into one UTF-8 buffer, and the
    /// `String` is made once at the end (appending to a `String.UnicodeScalarView` per escape was quadratic).
    private mutating func parseString() throws(SyntaxError) -> String {
        offset += 1  // opening quote
        var buffer: [UInt8] = []
        var runStart = offset
        while true {
            guard offset < bytes.count else { throw error("unterminated string") }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                try appendRun(from: runStart, into: &buffer)
                offset += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if byte < 0x20 {
                throw error("control character in string (escape it)")
            }
            if byte != UInt8(ascii: "\\") {
                offset += 1
                continue
            }
            try appendRun(from: runStart, into: &buffer)
            offset += 1
            guard offset < bytes.count else { throw error("unterminated escape sequence") }
            let escape = bytes[offset]
            offset += 1
            switch escape {
            case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                let scalar = try parseUnicodeEscape()
                buffer.append(contentsOf: scalar.utf8)
            default:
                offset -= 1
                throw error("invalid escape sequence '\\\(Character(Unicode.Scalar(escape)))'")
            }
            runStart = offset
        }
    }

    /// Validates the raw (unescaped) bytes from `start` to the current offset as UTF-8 and appends them.
    private func appendRun(from start: Int, into buffer: inout [UInt8]) throws(SyntaxError) {
        guard start < offset else { return }
        let run = bytes[start..<offset]
        var iterator = run.makeIterator()
        var decoder = UTF8()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: break decoding
            case .error: throw error("invalid UTF-8 in string")
            }
        }
        buffer.append(contentsOf: run)
    }

    private mutating func parseHexQuad() throws(SyntaxError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(SyntaxError) -> Unicode.Scalar {
        let high = try parseHexQuad()
        if (0xD800..<0xDC00).contains(high) {
            guard offset + 2 <= bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
            else { throw error("unpaired surrogate in \\u escape") }
            offset += 2
            let low = try parseHexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate in \\u escape") }
            let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            guard let scalar = Unicode.Scalar(combined) else { throw error("invalid \\u escape") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate in \\u escape") }
        return scalar
    }
}
