/// Hexadecimal text for bytes and back: the package's one implementation, used for session tokens and
/// SHA-256 digests.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hexadecimal, two digits a byte.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            result.append(digits[Int(byte >> 4)])
            result.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The bytes that `text` spells, two hexadecimal digits a byte; `nil` if it has an odd number of characters
    /// or any other character. Lowercase only unless `allowingUppercase`.
    public static func decode(_ text: some StringProtocol, allowingUppercase: Bool = false) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = value(of: characters[index], allowingUppercase: allowingUppercase),
                  let low = value(of: characters[index + 1], allowingUppercase: allowingUppercase) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(of digit: UInt8, allowingUppercase: Bool) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where allowingUppercase: digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
