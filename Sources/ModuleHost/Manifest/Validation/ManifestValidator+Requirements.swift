extension ManifestValidator {
    /// Pass 4: every module a module requires is present and enabled.
    func checkRequirements(of resolved: [ResolvedEntry], identifiers: [ModuleIdentifier: ModuleOwner],
                           disabled: [ModuleIdentifier: Manifest.Entry], into sink: inout DiagnosticSink) {
        // Sorted once, for the suggestions.
        var knownIdentifiers: [String]?
        for item in resolved where !sink.isFull {
            var entry: Manifest.Entry { item.entry }  // read only for a problem
            for requirement in item.requiredModules where identifiers[requirement] == nil {
                if let disabledEntry = disabled[requirement] {
                    report(.error, .disabledRequirement, entry,
                           "\(entry.typeName) requires module \"\(requirement)\", but its entry \(disabledEntry.path) (\(disabledEntry.typeName)) is disabled",
                           into: &sink)
                } else {
                    let candidates = knownIdentifiers ?? identifiers.keys.map(\.rawValue).sorted()
                    knownIdentifiers = candidates
                    let hint = Suggestions.closest(to: requirement.rawValue, in: candidates)
                    // Plugin modules that validation did not load may provide it: then the requirement is checked at registration.
                    let unsure = !plugins.inspected.isEmpty
                    report(unsure ? .warning : .error, .missingRequirement, entry,
                           "\(entry.typeName) requires module \"\(requirement)\", which no entry provides"
                               + (unsure ? " (unless a plugin module does: validation does not load plugins)" : ""),
                           suggestion: hint.map { "did you mean \"\($0)\"?" }, into: &sink)
                }
            }
        }
    }

    /// Pass 5: requirements do not form a cycle; each cycle is reported once, at its first module's entry.
    func checkCycles(among resolved: [ResolvedEntry], into sink: inout DiagnosticSink) {
        let index = Dictionary(resolved.enumerated().map { ($0.element.identifier, $0.offset) },
                               uniquingKeysWith: { first, _ in first })
        let cycles = CycleFinder.cycles(nodeCount: resolved.count) { node in
            resolved[node].requiredModules.compactMap { index[$0] }
        }
        for cycle in cycles {
            let path = cycle.map { resolved[$0].identifier.rawValue }.joined(separator: " -> ")
            report(.error, .dependencyCycle, resolved[cycle[0]].entry, "modules require each other in a cycle: \(path)", into: &sink)
        }
    }
}
