import ModuleHost
internal import ModuleHostSystemLibraries

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
        guard let bytes = Hex.decode(encoded), bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// Lowercase hex, 64 characters. Only for the session file.
    var encoded: String { Hex.encode(bytes) }

    static func == (lhs: SessionToken, rhs: SessionToken) -> Bool {
        ConstantTime.equals(lhs.bytes, rhs.bytes)
    }

    var description: String { "SessionToken(<redacted>)" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
