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
    /// The identifier's text, for example `"com.example.auth"`.
    public let rawValue: String

    /// Creates an identifier from its text; never fails. A literal (`"com.example.auth"`) makes one too.
    ///
    /// - Parameter rawValue: The identifier's text.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}

extension ModuleIdentifier: RawRepresentable {}

extension ModuleIdentifier: ExpressibleByStringLiteral {
    /// Creates an identifier from a string literal.
    ///
    /// - Parameter value: The identifier's text.
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
    ///
    /// - Parameters:
    ///   - lhs: An identifier.
    ///   - rhs: Another identifier.
    /// - Returns: Whether `lhs`'s text sorts before `rhs`'s.
    public static func < (lhs: ModuleIdentifier, rhs: ModuleIdentifier) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
