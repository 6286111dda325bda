/// A machine-readable reason an error or a diagnostic carries, compared and switched on by hosts; no logic reads
/// message text.
///
/// Every code type of ModuleHost and its libraries (`ResolutionError.Code`, `ManifestDiagnostic.Code`,
/// `InitiatorError.Code`, …) is a struct of this kind with one static member per code, so a code added in a later
/// version is an additive change: a `switch` over a code needs a `default:`. A code this version does not know (read
/// from JSON written by a later one) keeps its raw value and is unequal to every code it lists.
///
/// ```swift
/// switch error.code {
/// case .unknownModule: print("not in the manifest")
/// default: print(error)
/// }
/// ```
public protocol ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible where RawValue == String {}

extension ErrorCode {
    /// The code's name, so that a code prints (and interpolates) as its raw value.
    public var description: String { rawValue }
}
