/// A session token: 32 bytes from the system's secure random source.
///
/// The value never appears in `description`, `debugDescription` or reflection; only
/// `encoded` reveals it, for the session file.
struct SessionToken: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    static let byteCount = 32

    private let bytes: [UInt8]

    /// A new random token. `SystemRandomNumberGenerator` uses getrandom(2)/arc4random.
    static func generate() -> SessionToken {
        var generator = SystemRandomNumberGenerator()
        return SessionToken(bytes: (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Decodes the lowercase hex form; `nil` unless it is exactly 64 hex digits.
    init?(encoded: String) {
        let digits = Array(encoded.utf8)
        guard digits.count == Self.byteCount * 2 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.byteCount)
        var index = 0
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.bytes = bytes
    }

    /// Lowercase hex, 64 characters. Only for the session file.
    var encoded: String {
        let hexDigits = Array("0123456789abcdef".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            result.append(hexDigits[Int(byte >> 4)])
            result.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: result, as: UTF8.self)
    }

    static func == (lhs: SessionToken, rhs: SessionToken) -> Bool {
        ConstantTime.equals(lhs.bytes, rhs.bytes)
    }

    var description: String { "SessionToken(<redacted>)" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
