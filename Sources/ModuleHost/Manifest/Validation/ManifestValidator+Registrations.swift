extension ManifestValidator {
    /// Pass 6, per module: decodes its config, checks that its operation overrides name operations it declares,
    /// and makes its registration.
    func registration(for resolved: ResolvedEntry, into sink: inout DiagnosticSink) -> ModuleRegistration {
        var entry: Manifest.Entry { resolved.entry }  // read in place, not copied
        let configuration = decodeConfiguration(of: resolved, into: &sink)
        checkOperationOverrides(of: resolved, into: &sink)
        return ModuleRegistration(resolved, typeName: entry.typeName, eager: entry.eager, configuration: configuration,
                                  startup: entry.startup,
                                  origin: .manifest(file: manifest.file, path: entry.path, library: entry.library),
                                  routeOverrides: entry.routes)
    }

    /// The module's decoded configuration (`nil` if it takes none), reporting a config that does not decode.
    private func decodeConfiguration(of resolved: ResolvedEntry, into sink: inout DiagnosticSink) -> (any Sendable)? {
        var entry: Manifest.Entry { resolved.entry }  // read in place, not copied
        do {
            let source = entry.config ?? .empty(file: manifest.file, entryPath: entry.path)
            let configuration = try ConfigurationDecoding.decode(for: resolved.type, from: source)
            if configuration == nil, entry.config != nil {
                report(.warning, .unusedConfig, entry, path: "\(entry.path).config",
                       "\(entry.typeName) does not adopt ConfigurableModule, so this config is ignored", into: &sink)
            }
            return configuration
        } catch {
            guard entry.config == nil else {
                sink.append(contentsOf: error.diagnostics)
                return nil
            }
            // No config at all: the problem is the entry's, not a field's.
            for diagnostic in error.diagnostics {
                report(.error, .invalidConfig, entry, "\(entry.typeName) needs a \"config\" object: \(diagnostic.message)", into: &sink)
            }
            return nil
        }
    }

    /// Reports operation overrides (`"operations": {…}`) that name no operation the module declares.
    private func checkOperationOverrides(of resolved: ResolvedEntry, into sink: inout DiagnosticSink) {
        var entry: Manifest.Entry { resolved.entry }  // read in place, not copied
        guard !entry.startup.operations.isEmpty else { return }
        let declared = Contribution.values(of: resolved.contributions, for: ModuleStartupOperation.point).map(\.identifier)
        for name in entry.startup.operations.keys.sorted() where !declared.contains(name) {
            if sink.isFull { return }
            let list = declared.isEmpty ? "it declares no startup operations" : "it declares \(declared.map { "\"\($0)\"" }.joined(separator: ", "))"
            report(.error, .unknownOperation, entry, path: "\(entry.path).operations.\(name)",
                   "\(entry.typeName) has no startup operation \"\(name)\"; \(list)",
                   suggestion: Suggestions.closest(to: name, in: declared).map { "did you mean \"\($0)\"?" }, into: &sink)
        }
    }
}
