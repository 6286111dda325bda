extension ManifestValidator {
    /// Pass 1: looks every entry's type name up. Returns the enabled modules, and the disabled ones by identifier
    /// (a requirement on one of those gets its own message).
    func resolveTypes(into sink: inout DiagnosticSink) -> (enabled: [ResolvedEntry], disabled: [ModuleIdentifier: Manifest.Entry]) {
        var enabled: [ResolvedEntry] = []
        var disabled: [ModuleIdentifier: Manifest.Entry] = [:]
        enabled.reserveCapacity(manifest.modules.count)
        var candidates = SuggestionCandidates(validator: self)
        let entries = manifest.modules
        // Entries are read field by field (`entries[index].typeName`), never whole: a whole entry is a copy of a dozen
        // fields, each retained.
        for index in entries.indices where !plugins.refused.contains(index) {
            // A hostile manifest of a million unknown names gets a bounded report, quickly.
            if sink.isFull { break }
            // A plugin library that validation only inspected defines the type (checked), which cannot be looked up
            // without loading the library; its entry's other checks come when the manifest is registered.
            if plugins.inspected[index] != nil, resolver.type(named: entries[index].typeName) == nil { continue }
            guard let type = resolveType(of: entries, at: index, library: plugins.loaded[index],
                                         candidates: &candidates, into: &sink) else {
                continue
            }
            if entries[index].enabled {
                enabled.append(ResolvedEntry(entries, at: index, type: type))
            } else {
                disabled[type.moduleIdentifier] = entries[index]
            }
        }
        return (enabled, disabled)
    }

    /// The module type that the entry at `index` of `entries` names, or `nil` after reporting why there is none.
    /// Takes the array and an index, not the entry: an entry passed as an argument is copied, all its fields retained,
    /// for every call.
    private func resolveType(of entries: [Manifest.Entry], at index: Int, library: String?,
                             candidates: inout SuggestionCandidates,
                             into sink: inout DiagnosticSink) -> (any ModuleProtocol.Type)? {
        let found = resolver.moduleType(named: entries[index].typeName)
        if case .module(let moduleType) = found { return moduleType }
        let entry = entries[index]
        let typePath = "\(entry.path).type"
        guard case .notAModule = found else {
            if let library {
                report(entry.optional ? .warning : .error, .unknownType, entry, path: typePath,
                       "the library \(library) loaded, but it defines no type named \"\(entry.typeName)\"", into: &sink)
                return nil
            }
            // A disabled entry may name a module this build leaves out: nothing to warn about.
            guard entry.enabled else { return nil }
            // Quoted with every character outside printable ASCII written as \u{…}: a look-alike letter (a Cyrillic
            // "М" in "ClockМodule") shows, instead of reading as the name it is suggested to be.
            var message = "no type named \(DisplayText.quoted(entry.typeName, with: "\"")) is linked into this program"
            if !entry.typeName.contains(".") {
                message += "; type names are qualified with their Swift module, like \"AuthModule.AuthModule\""
            }
            let hint = Suggestions.closest(to: entry.typeName, in: candidates.names(for: entry.typeName))
            report(.error, .unknownType, entry, path: typePath, message,
                   suggestion: hint.map { "did you mean \"\($0)\"?" }, into: &sink)
            return nil
        }
        report(entry.enabled ? .error : .warning, .notAModule, entry, path: typePath,
               "\"\(entry.typeName)\" exists but does not conform to ModuleProtocol; it will not be instantiated", into: &sink)
        return nil
    }
}

/// The type names a "did you mean" may offer for an unknown name: those the manager and the resolver know
/// (looked up once, on the first unknown name), plus the guesses made from the unknown name itself. The work per
/// unknown name is bounded, so a manifest of many unknown names costs time linear in its size.
struct SuggestionCandidates {
    let validator: ManifestValidator
    private var known: [String]?

    init(validator: ManifestValidator) {
        self.validator = validator
    }

    /// The names that resolve, worth suggesting for `name`.
    mutating func names(for name: String) -> [String] {
        let known = self.known ?? resolvable(validator.existing.typeNames + validator.resolver.knownTypeNames)
        self.known = known
        return known + resolvable(Self.guesses(for: name)).filter { !known.contains($0) }
    }

    private func resolvable(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted && validator.resolver.type(named: $0) != nil }
    }

    /// Names worth trying as suggestions for `name`: the SwiftPM convention of a module class named after its
    /// target (`AuthModule.AuthModule`), which covers a misspelt class or a missing prefix.
    static func guesses(for name: String) -> [String] {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var names: [String] = []
        if let first = parts.first { names.append("\(first).\(first)") }
        if let last = parts.last { names.append("\(last).\(last)") }
        return names
    }
}
