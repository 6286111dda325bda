/// A type's fully qualified name, as `String(reflecting:)` prints it (`AuthInterface.AuthService`), read from the
/// type's metadata: `String(reflecting:)` first asks the Swift runtime whether the metatype conforms to the
/// printing protocols, which the first time scans the conformance records of every loaded image.
package enum TypeName {
    /// The qualified name of `type`.
    package static func of(_ type: Any.Type) -> String {
        _typeName(type, qualified: true)
    }
}
