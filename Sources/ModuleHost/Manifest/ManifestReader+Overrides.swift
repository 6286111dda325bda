internal import ModuleHostJSON
/// Reading a module entry's startup overrides: its own (`priority`, `timeout`, `failurePolicy`) and those of
/// its operations, by identifier.
extension ManifestReader.Context {
    /// The startup overrides that `object` (at `path`) sets for its own operations or, in `operations`, for one.
    mutating func readOverrides(_ object: JSONValue, path: String) -> StartupOverrides {
        var overrides = StartupOverrides()
        if let value = object.member("priority") {
            let names = ModuleStartupOperation.Priority.allCases.map(\.rawValue)
            if case .string(let name) = value.kind, let priority = ModuleStartupOperation.Priority(rawValue: name) {
                overrides.priority = priority
            } else if case .string(let name) = value.kind {
                error(.invalidValue, "\(path).priority", value.location,
                      "unknown priority \"\(name)\"; expected one of \(names.joined(separator: ", "))",
                      suggestion: Suggestions.closest(to: name, in: names).map { "did you mean \"\($0)\"?" })
            } else {
                wrongType("\(path).priority", value, expected: "a priority name (\(names.joined(separator: ", ")))")
            }
        }
        if let value = object.member("timeout") {
            // At least a millisecond: timeouts are kept in milliseconds, and a zero one would fire at once.
            if case .number(let seconds, _) = value.kind, seconds >= 0.001, seconds <= 86_400 {
                overrides.timeout = .milliseconds(Int64((seconds * 1000).rounded()))
            } else if case .number = value.kind {
                error(.invalidValue, "\(path).timeout", value.location, "expected a timeout in seconds from 0.001 to 86400")
            } else {
                wrongType("\(path).timeout", value, expected: "a number of seconds")
            }
        }
        if let value = object.member("failurePolicy") {
            if case .string(let name) = value.kind, let policy = ModuleStartupOperation.FailurePolicy(rawValue: name) {
                overrides.failurePolicy = policy
            } else {
                let found = if case .string(let name) = value.kind { "\"\(name)\"" } else { value.typeName }
                error(.invalidValue, "\(path).failurePolicy", value.location, "expected \"required\" or \"optional\", found \(found)")
            }
        }
        return overrides
    }

    /// Reads an entry's `operations` (at `path`.operations, when present): per-operation startup overrides.
    mutating func readOperationOverrides(_ operations: JSONValue?, path: String, into startup: inout StartupOverrides) {
        guard let operations else { return }
        guard case .object(let members) = operations.kind else {
            wrongType("\(path).operations", operations, expected: "an object keyed by operation identifier")
            return
        }
        checkRepeatedKeys(members, path: "\(path).operations")
        for member in members where !sink.isFull {
            let operationPath = Self.memberPath("\(path).operations", member.key)
            guard case .object(let fields) = member.value.kind else {
                wrongType(operationPath, member.value, expected: "an object of startup overrides")
                continue
            }
            checkFields(fields, known: ManifestReader.overrideFields, path: operationPath, what: "operation overrides")
            startup.operations[member.key] = readOverrides(member.value, path: operationPath)
        }
    }
}
