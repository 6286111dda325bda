/// Finds a module's type from the name written in a manifest, at run time.
///
/// The default looks the name up in the Swift runtime's type metadata (`_typeByName`), which works on
/// Linux without the Objective-C runtime: a class that is linked into the program is found even if no code
/// imports it. Top-level classes are named `SwiftModule.ClassName`.
public struct ModuleTypeResolver: Sendable {
    private let lookup: @Sendable (String) -> Any.Type?
    /// Extra names offered as "did you mean" suggestions when a name is not found.
    let knownTypeNames: [String]

    /// A resolver that asks `lookup` and suggests among `knownTypeNames`.
    public init(knownTypeNames: [String] = [], lookup: @escaping @Sendable (String) -> Any.Type?) {
        self.lookup = lookup
        self.knownTypeNames = knownTypeNames
    }

    /// Looks names up in the Swift runtime; `knownTypeNames` only feed suggestions.
    public static func runtime(knownTypeNames: [String] = []) -> ModuleTypeResolver {
        ModuleTypeResolver(knownTypeNames: knownTypeNames) { name in _typeByName(name) }
    }

    /// Resolves only the given module types, by their full name (as `String(reflecting:)` prints it); for tests and apps
    /// that want a closed list.
    public static func types(_ types: [any ModuleProtocol.Type]) -> ModuleTypeResolver {
        let table = Dictionary(types.map { (TypeName.of($0), $0 as Any.Type) }, uniquingKeysWith: { first, _ in first })
        return ModuleTypeResolver(knownTypeNames: Array(table.keys).sorted()) { table[$0] }
    }

    /// The type named `name`, if any is linked in.
    func type(named name: String) -> Any.Type? {
        lookup(name)
    }
}
