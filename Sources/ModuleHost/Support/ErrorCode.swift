/// A machine-readable reason an error or a diagnostic carries, compared and switched on by hosts; no logic reads
/// message text.
///
/// Every code type of ModuleHost and its libraries (`ResolutionError.Code`, `ManifestDiagnostic.Code`,
/// `InitiatorError.Code`, …) is this struct, specialised by the type whose code it is (its `Domain`), with one static
/// member per code. A code added in a later version is an additive change: a `switch` over a code needs a `default:`.
/// A code this version does not know (read from JSON written by a later one) keeps its raw value and is unequal to
/// every code it lists. Codes of two domains never compare equal, because they are different types.
///
/// ```swift
/// switch error.code {
/// case .unknownModule: print("not in the manifest")
/// default: print(error)
/// }
/// ```
///
/// A module's own error type gets codes the same way:
///
/// ```swift
/// public struct CartError: Error {
///     public typealias Code = ErrorCode<CartError>
///     public let code: Code
/// }
/// extension ErrorCode where Domain == CartError {
///     public static var emptyCart: Self { Self(rawValue: "emptyCart") }
/// }
/// ```
public struct ErrorCode<Domain>: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The code's stable name, as JSON output prints it.
    public let rawValue: String

    /// Creates a code from its name.
    ///
    /// Any name is accepted, so a code that a later version adds still decodes.
    ///
    /// - Parameter rawValue: The code's name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The code's name, so that a code prints (and interpolates) as its raw value.
    public var description: String { rawValue }
}
