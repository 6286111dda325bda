/// A strict JSON parser (RFC 8259) that records the line and column of every value.
///
/// Foundation's parsers lose positions after parsing, so manifest diagnostics could not point at the
/// offending field. This parser keeps them, bounds nesting depth so hostile input cannot exhaust the stack,
/// and reports the first syntax error with its position.
public struct JSONParser {
    /// A syntax error with the position where parsing stopped.
    public struct SyntaxError: Error, Sendable {
        public let message: String
        public let location: JSONLocation
    }

    /// The deepest nesting accepted; manifests need a handful of levels, configs a few more.
    public static let maximumDepth = 512

    let bytes: [UInt8]
    var offset = 0
    var line = 1
    var lineStart = 0
    private var depth = 0
    /// The members and elements of the containers still open, innermost last: one stack of each for the whole
    /// parse, each container's on top of those around it.
    private var openMembers: [JSONValue.Member] = []
    private var openElements: [JSONValue] = []

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses one JSON document; trailing non-whitespace is an error.
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
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

    var location: JSONLocation {
        JSONLocation(line: line, column: offset - lineStart + 1)
    }

    func error(_ message: String) -> SyntaxError {
        SyntaxError(message: message, location: location)
    }

    func describeCurrent() -> String {
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

    /// Parses one value, containers included, without recursion: the containers still open are kept in a list
    /// of their own, so the stack a parse needs does not grow with nesting (a deep manifest cannot overflow a
    /// thread's stack, however small, on any build).
    private mutating func parseValue() throws(SyntaxError) -> JSONValue {
        var open: [OpenContainer] = []
        values: while true {
            guard var value = try beginValue(opening: &open) else { continue values }
            // The value goes into the innermost open container, in place; each container it closes goes into
            // the one around it.
            while let innermost = open.indices.last {
                guard try add(consume value, to: &open[innermost]) else { continue values }
                value = close(open.removeLast())
            }
            return value
        }
    }

    /// A container whose members or elements are being parsed.
    private struct OpenContainer {
        let isObject: Bool
        let start: Int
        public let location: JSONLocation
        /// Where its members (in an object) or elements begin on the parser's stack of them.
        let first: Int
        /// In an object, the key whose value is being parsed, and where it stands.
        var key: (text: String, location: JSONLocation)?
    }

    /// Puts `value` on the stack of the innermost open `container`: in an object, as the member of the pending key.
    private mutating func push(_ value: consuming JSONValue, into container: inout OpenContainer) {
        if container.isObject, let key = container.key.take() {
            openMembers.append(.init(key: key.text, keyLocation: key.location, value: value))
        } else {
            openElements.append(value)
        }
    }

    /// The value of `container`, which just closed: its members or elements, taken off the stack into an array of
    /// exactly their number (one allocation, where appending to an array of its own grew it several times).
    private mutating func close(_ container: OpenContainer) -> JSONValue {
        let kind: JSONValue.Kind
        if container.isObject {
            kind = .object(Array(openMembers[container.first...]))
            openMembers.removeSubrange(container.first...)
        } else {
            kind = .array(Array(openElements[container.first...]))
            openElements.removeSubrange(container.first...)
        }
        return JSONValue(kind: kind, location: container.location, byteRange: container.start..<offset)
    }

    /// Reads the value that starts here if it is a scalar or an empty container; otherwise opens the container
    /// (in an object, up to its first value) onto `open` and returns `nil`.
    private mutating func beginValue(opening open: inout [OpenContainer]) throws(SyntaxError) -> JSONValue? {
        guard offset < bytes.count else { throw error("expected a value, found end of file") }
        let isObject = bytes[offset] == UInt8(ascii: "{")
        guard isObject || bytes[offset] == UInt8(ascii: "[") else { return try parseScalar() }
        var container = OpenContainer(isObject: isObject, start: offset, location: location,
                                      first: isObject ? openMembers.count : openElements.count)
        try enterContainer()
        if offset < bytes.count, bytes[offset] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
            offset += 1
            depth -= 1
            return close(container)
        }
        if isObject { container.key = try parseKey() }
        open.append(container)
        return nil
    }

    /// Adds `value` to `container`, then reads what follows: on a comma, gets ready for the next member or element
    /// (reading its key in an object) and returns false; on the closing bracket, steps past it and returns true.
    private mutating func add(_ value: consuming JSONValue, to container: inout OpenContainer) throws(SyntaxError) -> Bool {
        push(consume value, into: &container)
        let closer = container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        skipWhitespace()
        guard offset < bytes.count else {
            throw error("expected ',' or '\(Character(Unicode.Scalar(closer)))', found end of file")
        }
        if bytes[offset] == UInt8(ascii: ",") {
            offset += 1
            skipWhitespace()
            if container.isObject { container.key = try parseKey() }
            return false
        }
        if bytes[offset] == closer {
            offset += 1
            depth -= 1
            return true
        }
        throw error("expected ',' or '\(Character(Unicode.Scalar(closer)))' in \(container.isObject ? "object" : "array"), found \(describeCurrent())")
    }

    /// Reads `"key"` and the colon after it, up to the value.
    private mutating func parseKey() throws(SyntaxError) -> (text: String, location: JSONLocation) {
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
        return (key, keyLocation)
    }

    /// Parses a string, number, boolean or null.
    private mutating func parseScalar() throws(SyntaxError) -> JSONValue {
        let start = offset
        let startLocation = location
        let kind: JSONValue.Kind
        switch bytes[offset] {
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

    private mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
        let matches = literal.withUTF8Buffer { expected in bytes[offset...].starts(with: expected) }
        guard matches else {
            throw error("expected a value, found \(describeCurrent())")
        }
        offset += literal.utf8CodeUnitCount
    }
}
