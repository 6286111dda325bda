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
        // A UTF-8 byte order mark is skipped, as the manifest reader of the run skips it.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
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

        /// A string's contents, its escapes decoded (`\\u` with surrogate pairs included), as the run reads it.
        mutating func string() throws(Failure) -> String {
            index += 1
            var text: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"): text += Array(try escape().utf8)
                case 0x0A: throw failure("a line break inside a string")
                default: text.append(byte)
                }
            }
            throw failure("the file ends inside a string")
        }

        /// The character an escape after `\\` stands for.
        mutating func escape() throws(Failure) -> String {
            guard index < bytes.count else { throw failure("the file ends inside a string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "b"): return "\u{8}"
            case UInt8(ascii: "f"): return "\u{C}"
            case UInt8(ascii: "u"):
                var value = try hex()
                if (0xD800...0xDBFF).contains(value), bytes[index...].starts(with: Array("\\u".utf8)) {
                    index += 2
                    let low = try hex()
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(value) else { throw failure("an escape that is not a character") }
                return String(Character(scalar))
            default: return String(UnicodeScalar(byte))
            }
        }

        mutating func hex() throws(Failure) -> UInt32 {
            guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw failure("\\u is not followed by four hexadecimal digits")
            }
            index += 4
            return value
        }
    }
}
