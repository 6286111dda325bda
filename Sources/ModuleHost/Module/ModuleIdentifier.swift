/// The stable name of a module, reverse-DNS by convention (`"com.example.auth"`).
///
/// Declare identifiers once, as static constants, so call sites read `bridge.resolve(.auth)`:
///
/// ```swift
/// extension ModuleIdentifier {
///     static let auth: ModuleIdentifier = "com.example.auth"
/// }
/// ```
public struct ModuleIdentifier: Hashable, Sendable {
    /// The text and its hash; equality and hashing are the text's.
    private let text: HashedText

    /// The identifier's text, for example `"com.example.auth"`.
    public var rawValue: String { text.string }

    /// Creates an identifier from its text; never fails. A literal (`"com.example.auth"`) makes one too.
    ///
    /// - Parameter rawValue: The identifier's text.
    public init(rawValue: String) {
        text = HashedText(rawValue)
    }
}

/// A string with its hash, taken once: identifiers key every table of the registry and of validation, so a lookup
/// hashes one integer instead of the text each time. The hash is the string's own, seeded per process like every
/// hash, so no one can choose texts whose hashes collide.
private struct HashedText: Hashable, Sendable {
    let string: String
    let hash: Int

    init(_ string: String) {
        self.string = string
        hash = string.hashValue
    }

    static func == (lhs: HashedText, rhs: HashedText) -> Bool {
        lhs.hash == rhs.hash && lhs.string == rhs.string
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}

extension ModuleIdentifier: RawRepresentable {}

extension ModuleIdentifier: ExpressibleByStringLiteral {
    /// Creates an identifier from a string literal.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }
}

extension ModuleIdentifier: CustomStringConvertible {
    /// The identifier's text.
    public var description: String { rawValue }
}

/// Encoded as a single JSON string (the standard library's coding of a `RawRepresentable` type).
extension ModuleIdentifier: Codable {}

extension ModuleIdentifier: Comparable {
    /// Orders identifiers by their text.
    public static func < (lhs: ModuleIdentifier, rhs: ModuleIdentifier) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
