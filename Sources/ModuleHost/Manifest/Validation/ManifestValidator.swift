/// Checks a structurally sound manifest against the program, as a series of named passes that all report into
/// one ``DiagnosticSink``, so one run reports every problem, like a compiler.
///
/// Validation has no side effects: it reads the manifest, looks type names up and decodes configs. Loading
/// plugin libraries is a separate step that comes before it (its outcome is ``plugins``).
struct ManifestValidator {
    let manifest: Manifest
    let resolver: ModuleTypeResolver
    /// What the manager already holds.
    let existing: RegisteredModules
    /// Command names the host keeps for itself.
    var reservedCommandNames: Set<String> = []
    /// The outcome of loading the manifest's plugin libraries.
    var plugins = PluginLibraries()

    /// A manifest entry whose type was found and is a module, with the type's declarations read once: the passes
    /// check these values, and they are the ones registered (a computed declaration that changed between two reads
    /// could otherwise register something no pass checked).
    ///
    /// A class, so that the passes, which each walk every entry, retain one reference per entry instead of copying
    /// the entry's dozen fields (and its declarations) in every pass.
    final class ResolvedEntry {
        /// The manifest's entries, shared by every resolved entry of it rather than copied into each.
        private let entries: [Manifest.Entry]
        private let index: Int
        let type: any ModuleProtocol.Type
        let identifier: ModuleIdentifier
        let requiredModules: [ModuleIdentifier]
        let providedServices: [ProvidedService]
        /// What the type contributes.
        let contributions: [Contribution]

        /// The manifest entry (a copy, every reference in it retained: for reports).
        var entry: Manifest.Entry { entries[index] }
        /// The entry's type name, read in place.
        var typeName: String { entries[index].typeName }
        /// Where the entry stands in its file, read in place.
        var path: String { entries[index].path }

        /// The entry at `index` of `entries`, of module type `type`.
        init(_ entries: [Manifest.Entry], at index: Int, type: any ModuleProtocol.Type) {
            self.entries = entries
            self.index = index
            self.type = type
            identifier = type.moduleIdentifier
            requiredModules = type.requiredModules
            providedServices = type.providedServices
            contributions = Contribution.declared(by: type)
        }
    }

    /// The registrations of the enabled modules, or none when the sink holds an error.
    func validate(into sink: inout DiagnosticSink) -> [ModuleRegistration] {
        // Once the sink is full the report is final, so later passes are skipped: a hostile manifest costs work
        // up to the cap, not work per entry in every pass.
        let (resolved, disabled) = resolveTypes(into: &sink)
        guard !sink.isFull else { return [] }
        let identifiers = checkUniqueness(of: resolved, into: &sink)
        guard !sink.isFull else { return [] }
        checkProvidedServices(of: resolved, into: &sink)
        guard !sink.isFull else { return [] }
        checkContributions(of: resolved, into: &sink)
        guard !sink.isFull else { return [] }
        checkCommandNames(of: resolved, into: &sink)
        guard !sink.isFull else { return [] }
        checkRouting(of: resolved, into: &sink)
        guard !sink.isFull else { return [] }
        checkLibraryPoints(of: resolved, into: &sink)
        guard !sink.isFull else { return [] }
        checkRequirements(of: resolved, identifiers: identifiers, disabled: disabled, into: &sink)
        guard !sink.isFull else { return [] }
        checkCycles(among: resolved, into: &sink)
        var registrations: [ModuleRegistration] = []
        registrations.reserveCapacity(resolved.count)
        for entry in resolved {
            guard !sink.isFull else { return [] }
            registrations.append(registration(for: entry, into: &sink))
        }
        return sink.hasErrors ? [] : registrations
    }

    /// Reports a problem about `entry`, at `path` (the entry's own by default).
    func report(_ severity: ManifestDiagnostic.Severity, _ code: ManifestDiagnostic.Code, _ entry: Manifest.Entry,
                path: String? = nil, _ message: String, suggestion: String? = nil, into sink: inout DiagnosticSink) {
        sink.report(severity, code, path: path ?? entry.path, location: entry.location, message, suggestion: suggestion)
    }
}
