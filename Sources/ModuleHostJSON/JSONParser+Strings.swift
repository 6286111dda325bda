/// Strings: escapes, surrogate pairs and UTF-8 validation, in time linear in the length.
extension JSONParser {
    /// Parses a string in time linear in its length: raw runs and escapes go into one UTF-8 buffer, and the
    /// `String` is made once at the end (appending to a `String.UnicodeScalarView` per escape was quadratic).
    mutating func parseString() throws(SyntaxError) -> String {
        offset += 1  // opening quote
        var buffer: [UInt8] = []
        var runStart = offset
        var isASCII = true  // so far: an ASCII string needs no UTF-8 check
        while true {
            guard offset < bytes.count else { throw error("unterminated string") }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\""), buffer.isEmpty {
                // No escape: the string is this one run, made from it without a buffer.
                let run = bytes[runStart..<offset]
                if !isASCII { try validate(run) }
                offset += 1
                return String(decoding: run, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\"") {
                try appendRun(from: runStart, into: &buffer)
                offset += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if byte < 0x20 {
                throw error("control character in string (escape it)")
            }
            if byte != UInt8(ascii: "\\") {
                if byte >= 0x80 { isASCII = false }
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

    /// Validates the raw (unescaped) bytes from `start` to the current offset as UTF-8 and appends them to `buffer`.
    func appendRun(from start: Int, into buffer: inout [UInt8]) throws(SyntaxError) {
        guard start < offset else { return }
        let run = bytes[start..<offset]
        try validate(run)
        buffer.append(contentsOf: run)
    }

    /// Throws unless `run` is valid UTF-8 (checked byte by byte only when it is not all ASCII).
    func validate(_ run: ArraySlice<UInt8>) throws(SyntaxError) {
        guard !run.allSatisfy({ $0 < 0x80 }) else { return }
        var iterator = run.makeIterator()
        var decoder = UTF8()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: break decoding
            case .error: throw error("invalid UTF-8 in string")
            }
        }
    }

    mutating func parseHexQuad() throws(SyntaxError) -> UInt32 {
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

    mutating func parseUnicodeEscape() throws(SyntaxError) -> Unicode.Scalar {
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
