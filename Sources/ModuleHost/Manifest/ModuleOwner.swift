/// The module that already holds a name (an identifier, a command), as a diagnostic about a clash names it:
/// its type and where it was declared, `AuthModule.AuthModule (modules[0])`. Kept in parts, so that the text is
/// made only for a clash, not for every module checked.
struct ModuleOwner: CustomStringConvertible {
    /// The module's type name.
    let typeName: String
    /// Where it was declared: a manifest entry's path, or its registration's origin.
    let place: String

    var description: String { "\(typeName) (\(place))" }
}
