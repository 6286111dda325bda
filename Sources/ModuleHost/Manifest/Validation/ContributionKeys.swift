/// The keys contributed to the host's extension points that require unique keys, each with the module that
/// contributed it; the library's own points check their clashes in passes of their own (commands by name,
/// routes by pattern, startup operations in the plan).
enum ContributionKeys {
    /// Whether `point`'s keys are compared here when a manifest is validated.
    static func areChecked(for point: ExtensionPointDeclaration) -> Bool {
        point.requiresUniqueKeys && !point.isBuiltIn
    }

    /// Whether `point`'s keys are compared again when validated registrations are added, under the registry's lock:
    /// the host's unique points, and command names (checked by their own pass before that), so that two
    /// registrations racing each other cannot both take one.
    static func areRecheckedWhenAdded(for point: ExtensionPointDeclaration) -> Bool {
        areChecked(for: point) || (point.isBuiltIn && point.name == ModuleCommand.point.name)
    }

    /// The message for a key `owner` already contributed to the point quoted as `point`.
    static func clash(_ typeName: String, _ key: String, _ point: String, _ owner: String) -> String {
        "\(typeName) contributes \(DisplayText.quoted(key, with: "\"")) to the extension point \(point), "
            + "which \(owner) already contributes; its keys are unique"
    }

    /// The unique keys `registrations` contribute, by point, each with its owner, and the messages for those that
    /// `keys` (or an earlier one of them) holds: one pass over the contributions, for the check and the insertion.
    static func collect(_ registrations: [ModuleRegistration], against keys: [String: [String: String]],
                        points: [String: ExtensionPointDeclaration]) -> (added: [String: [String: String]], clashes: [String]) {
        var added: [String: [String: String]] = [:]
        var clashes: [String] = []
        forEachKey(of: registrations, points: points) { registration, point, key in
            if let other = keys[point]?[key] ?? added[point]?[key] {
                clashes.append(clash(registration.typeName, key, DisplayText.quoted(point, with: "\""), other))
            } else {
                added[point, default: [:]][key] = "\(registration.typeName) (\(registration.origin))"
            }
        }
        return (added, clashes)
    }

    /// Records keys that ``collect(_:against:points:)`` found free in `keys`.
    static func insert(_ added: [String: [String: String]], into keys: inout [String: [String: String]]) {
        for (point, owners) in added {
            keys[point, default: [:]].merge(owners) { _, new in new }
        }
    }

    private static func forEachKey(of registrations: [ModuleRegistration], points: [String: ExtensionPointDeclaration],
                                   _ body: (ModuleRegistration, String, String) -> Void) {
        // A module's contributions mostly go to one point (its startup operations): look it up once per run of them,
        // and keep only whether its keys are checked (a copy of the declaration per contribution retained its parts).
        var lastName: String?
        var lastIsRechecked = false
        for registration in registrations {
            for contribution in registration.contributions {
                // A library's point comes with its contributions (no host declares it), as validation reads it.
                if let library = contribution.libraryPoint {
                    guard areRecheckedWhenAdded(for: library), let key = contribution.key else { continue }
                    body(registration, library.name, key)
                    continue
                }
                if lastName != contribution.pointName {
                    lastName = contribution.pointName
                    lastIsRechecked = points[contribution.pointName].map(areRecheckedWhenAdded(for:)) ?? false
                }
                guard lastIsRechecked, let key = contribution.key else { continue }
                body(registration, contribution.pointName, key)
            }
        }
    }
}
