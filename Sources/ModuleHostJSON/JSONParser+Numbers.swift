/// Numbers: the grammar of RFC 8259, with integers kept exact.
extension JSONParser {
    mutating func parseNumber() throws(SyntaxError) -> JSONValue.Kind {
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
        // An integer of at most 15 digits is exact in a Double: summed here, without making text for strtod.
        let negative = bytes[start] == UInt8(ascii: "-")
        let digits = offset - start - (negative ? 1 : 0)
        if isInteger, digits <= 15 {
            var magnitude = 0
            for byte in bytes[(offset - digits)..<offset] { magnitude = magnitude * 10 + Int(byte - UInt8(ascii: "0")) }
            return .number(negative ? -Double(magnitude) : Double(magnitude), isInteger: true)
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw SyntaxError(message: "number \(text) is out of range", location: location)
        }
        return .number(value, isInteger: isInteger)
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
