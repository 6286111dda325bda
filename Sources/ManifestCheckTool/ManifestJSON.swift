/// A JSON value with the line each string starts on: just enough of JSON to find a manifest's module entries and
/// where they are. Numbers, `true`, `false` and `null` are kept as their text. Malformed input throws ``Failure`` with its line.
indirect enum ManifestJSON {
    case object([(key: String, value: ManifestJSON)])
    case array([ManifestJSON])
    case string(String, line: Int)
    case other(String)

    /// Why the text is not JSON, and the line where that was found.
    struct Failure: Error {
        let line: Int
        let message: String
    }

    /// The value `key` holds, in an object.
    subscript(key: String) -> ManifestJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    static func parse(_ bytes: [UInt8]) throws(Failure) -> ManifestJSON {
        var parser = Parser(bytes: bytes)
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.failure("text after the JSON value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var line = 1

        func failure(_ message: String) -> Failure { Failure(line: line, message: message) }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            }
        }

        mutating func value(depth: Int) throws(Failure) -> ManifestJSON {
            guard depth < 512 else { throw failure("nested too deeply") }
            skipSpace()
            guard index < bytes.count else { throw failure("the file ends where a value was expected") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""):
                let start = line
                return .string(try string(), line: start)
            default:
                let start = index
                while index < bytes.count, !",]} \t\r\n".utf8.contains(bytes[index]) { index += 1 }
                guard index > start else { throw failure("a value was expected") }
                return .other(String(decoding: bytes[start..<index], as: UTF8.self))
            }
        }

        mutating func object(depth: Int) throws(Failure) -> ManifestJSON {
            index += 1
            var members: [(key: String, value: ManifestJSON)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("a key in quotes was expected") }
                let key = try string()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("\":\" was expected after a key") }
                index += 1
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard index < bytes.count else { throw failure("the file ends inside an object") }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "}") { return .object(members) }
                guard bytes[index - 1] == UInt8(ascii: ",") else { throw failure("\",\" or \"}\" was expected") }
            }
        }

        mutating func array(depth: Int) throws(Failure) -> ManifestJSON {
            index += 1
            var elements: [ManifestJSON] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                elements.append(try value(depth: depth + 1))
                skipSpace()
                guard index < bytes.count else { throw failure("the file ends inside an array") }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "]") { return .array(elements) }
                guard bytes[index - 1] == UInt8(ascii: ",") else { throw failure("\",\" or \"]\" was expected") }
            }
        }

        /// A string's contents; escapes other than `\"` and `\\` are kept as written (a type name has none).
        mutating func string() throws(Failure) -> String {
            index += 1
            var text: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { break }
                    let escaped = bytes[index]
                    index += 1
                    text += escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") ? [escaped] : [UInt8(ascii: "\\"), escaped]
                case 0x0A: throw failure("a line break inside a string")
                default: text.append(byte)
                }
            }
            throw failure("the file ends inside a string")
        }
    }
}
