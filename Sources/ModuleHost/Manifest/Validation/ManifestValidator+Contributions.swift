extension ManifestValidator {
    /// Pass 3b: every contribution is to a declared extension point, of the point's value type, with a key no other
    /// contribution to the point has when the point requires unique keys; and a module contributes only itself.
    func checkContributions(of resolved: [ResolvedEntry], into sink: inout DiagnosticSink) {
        var keys = existing.contributionKeys
        var last: ExtensionPointDeclaration?  // a module's contributions mostly go to one point: look it up once
        for item in resolved where !sink.isFull {
            for contribution in item.contributions where !sink.isFull {
                // A library's point is reached through the library's own point value (which carries its check),
                // never through a look-alike of the same name and type.
                if let library = contribution.libraryPoint {
                    check(contribution, to: library, of: item, keys: &keys, into: &sink)
                    continue
                }
                if last?.name != contribution.pointName {
                    last = existing.extensionPoints[contribution.pointName]
                }
                // `last` itself is passed, not an optional made from it: that would copy the declaration each time.
                if last?.check == nil {
                    check(contribution, to: last, of: item, keys: &keys, into: &sink)
                } else {
                    check(contribution, to: nil, of: item, keys: &keys, into: &sink)
                }
            }
        }
    }

    private func check(_ contribution: Contribution, to declared: ExtensionPointDeclaration?, of item: ResolvedEntry,
                       keys: inout [String: [String: String]], into sink: inout DiagnosticSink) {
        // The path and the quoted name are made only for a report: this runs for every contribution of every module.
        var entry: Manifest.Entry { item.entry }  // read only for a problem
        var path: String { "\(entry.path).type" }
        var name: String { DisplayText.quoted(contribution.pointName, with: "\"") }
        guard let point = declared else {
            let known = existing.extensionPoints.keys.sorted()
            report(.error, .unknownExtensionPoint, entry, path: path,
                   "\(entry.typeName) contributes to the extension point \(name), which this host does not declare",
                   suggestion: Suggestions.closest(to: contribution.pointName, in: known).map { "did you mean \"\($0)\"?" },
                   into: &sink)
            return
        }
        guard point.valueType == contribution.valueType else {
            report(.error, .contributionTypeMismatch, entry, path: path,
                   "\(entry.typeName) contributes a \(contribution.valueTypeName()) to the extension point \(name), "
                   + "whose contributions are of type \(point.valueTypeName())", into: &sink)
            return
        }
        if contribution.moduleType != nil, point.isBuiltIn || point.check != nil {
            report(.error, .invalidContribution, entry, path: path,
                   "\(entry.typeName) contributes itself to the extension point \(name), which takes values (such as "
                   + "`.command(_:)`, `.startupOperation(_:)` or `.route(_:)` make), not modules", into: &sink)
            return
        }
        if let made = contribution.moduleType, ObjectIdentifier(made) != ObjectIdentifier(item.type) {
            report(.error, .invalidContribution, entry, path: path,
                   "\(entry.typeName) contributes the module \(TypeName.of(made)) to the extension point \(name); "
                   + "a module contributes only itself", into: &sink)
            return
        }
        guard ContributionKeys.areChecked(for: point), let key = contribution.key else { return }
        if let other = keys[point.name]?[key] {
            report(.error, .invalidContribution, entry, path: path,
                   ContributionKeys.clash(entry.typeName, key, name, other), into: &sink)
        } else {
            keys[point.name, default: [:]][key] = "\(entry.typeName) (\(entry.path))"
        }
    }
}
