/// Finds a module's type from the name written in a manifest, at run time.
///
/// The default looks the name up in the Swift runtime's type metadata (`_typeByName`), which works on
/// Linux without the Objective-C runtime: a class that is linked into the program is found even if no code
/// imports it. Top-level classes are named `SwiftModule.ClassName`.
public struct ModuleTypeResolver: Sendable {
    private let lookup: @Sendable (String) -> Any.Type?
    /// Whether names are first looked up in the process's ``TypeIndex`` (the runtime resolver's fast path).
    private let indexed: Bool
    /// Extra names offered as "did you mean" suggestions when a name is not found.
    let knownTypeNames: [String]

    /// A resolver that asks `lookup` and suggests among `knownTypeNames`.
    public init(knownTypeNames: [String] = [], lookup: @escaping @Sendable (String) -> Any.Type?) {
        self.init(knownTypeNames: knownTypeNames, indexed: false, lookup: lookup)
    }

    private init(knownTypeNames: [String], indexed: Bool, lookup: @escaping @Sendable (String) -> Any.Type?) {
        self.lookup = lookup
        self.knownTypeNames = knownTypeNames
        self.indexed = indexed
    }

    /// Looks names up in the Swift runtime; `knownTypeNames` only feed suggestions.
    ///
    /// A module class is found through an index of the runtime's metadata, built once per process, and the
    /// runtime's `_typeByName` answers for every other name: the same types, without a scan of every loaded
    /// image for each name.
    public static func runtime(knownTypeNames: [String] = []) -> ModuleTypeResolver {
        ModuleTypeResolver(knownTypeNames: knownTypeNames, indexed: true) { name in _typeByName(name) }
    }

    /// Resolves only the given module types, by their full name (as `String(reflecting:)` prints it); for tests and apps
    /// that want a closed list.
    public static func types(_ types: [any ModuleProtocol.Type]) -> ModuleTypeResolver {
        let table = Dictionary(types.map { (TypeName.of($0), $0 as Any.Type) }, uniquingKeysWith: { first, _ in first })
        return ModuleTypeResolver(knownTypeNames: Array(table.keys).sorted()) { table[$0] }
    }

    /// The type named `name`, if any is linked in. ModuleHost's own probe module (``TypeIndexProbeModule``) is never
    /// found: no manifest may name it.
    func type(named name: String) -> Any.Type? {
        let found: Any.Type? = if indexed, let module = TypeIndex.lookUpModuleType(named: name) { module } else { lookup(name) }
        return found == TypeIndexProbeModule.self ? nil : found
    }

    /// The module type named `name`, one of `batch` names looked up together (a manifest's); `.notAModule` when a
    /// type of that name exists but does not conform to ``ModuleProtocol``, `.notFound` when none is linked in.
    func moduleType(named name: String, among batch: Int = 1) -> ModuleLookup {
        if indexed, let module = TypeIndex.lookUpModuleType(named: name, among: batch) {
            return module == TypeIndexProbeModule.self ? .notFound : .module(module)
        }
        guard let found = lookup(name), found != TypeIndexProbeModule.self else { return .notFound }
        guard let module = found as? any ModuleProtocol.Type else { return .notAModule }
        return .module(module)
    }

    /// What ``moduleType(named:)`` finds.
    enum ModuleLookup {
        case module(any ModuleProtocol.Type)
        case notAModule
        case notFound
    }
}
