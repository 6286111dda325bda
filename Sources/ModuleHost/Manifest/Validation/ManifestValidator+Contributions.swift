extension ManifestValidator {
    /// Pass 3b: every contribution is to a declared extension point, of the point's value type, and with a key no
    /// other contribution to the point has when the point requires unique keys.
    func checkContributions(of resolved: [ResolvedEntry], into sink: inout DiagnosticSink) {
        var keys = existing.contributionKeys
        for item in resolved where !sink.isFull {
            for contribution in item.type.contributions where !sink.isFull {
                check(contribution, of: item.entry, keys: &keys, into: &sink)
            }
            if checksConformances { checkSeedOperation(of: item, into: &sink) }
        }
    }

    private func check(_ contribution: Contribution, of entry: Manifest.Entry, keys: inout [String: [String: String]],
                       into sink: inout DiagnosticSink) {
        let path = "\(entry.path).type"
        let name = DisplayText.quoted(contribution.pointName, with: "\"")
        guard let point = existing.extensionPoints[contribution.pointName] else {
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
        guard ContributionKeys.areChecked(for: point), let key = contribution.key else { return }
        if let other = keys[point.name]?[key] {
            report(.error, .invalidContribution, entry, path: path,
                   "\(entry.typeName) contributes \(DisplayText.quoted(key, with: "\"")) to the extension point \(name), "
                   + "which \(other) already contributes; its keys are unique", into: &sink)
        } else {
            keys[point.name, default: [:]][key] = "\(entry.typeName) (\(entry.path))"
        }
    }

    /// A module that adopts the seed's protocol and declares contributions of its own must list its operation.
    private func checkSeedOperation(of item: ResolvedEntry, into sink: inout DiagnosticSink) {
        guard let seed = item.type as? any (ModuleInitiatorProtocol & ModuleProtocol).Type else { return }
        let operations = Contribution.values(of: item.type.contributions, for: ModuleStartupOperation.point)
        guard !operations.contains(where: { $0.identifier == seed.identifier }) else { return }
        report(.error, .invalidContribution, item.entry, path: "\(item.entry.path).type",
               "\(item.entry.typeName) adopts ModuleInitiatorProtocol, but its contributions leave out its operation "
               + "\"\(seed.identifier)\"; list `initiatorOperation` among them", into: &sink)
    }
}
