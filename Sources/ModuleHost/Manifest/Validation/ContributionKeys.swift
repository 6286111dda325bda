/// The keys contributed to the host's extension points that require unique keys, each with the module that
/// contributed it; the library's own points check their clashes in passes of their own (commands by name,
/// routes by pattern, startup operations in the plan).
enum ContributionKeys {
    /// Whether `point`'s keys are compared here.
    static func areChecked(for point: ExtensionPointDeclaration) -> Bool {
        point.requiresUniqueKeys && Contribution.builtInPoints[point.name] == nil
    }

    /// The keys `registrations` contributed, by point, each with its owner described as "Type (origin)".
    static func taken(by registrations: [ModuleRegistration],
                      in points: [String: ExtensionPointDeclaration]) -> [String: [String: String]] {
        var keys: [String: [String: String]] = [:]
        for registration in registrations {
            for contribution in registration.contributions {
                guard let key = contribution.key, let point = points[contribution.pointName], areChecked(for: point)
                else { continue }
                keys[point.name, default: [:]][key] = "\(registration.typeName) (\(registration.origin))"
            }
        }
        return keys
    }
}
