internal import ModuleHostJSON
extension ManifestReader.Context {
    /// The manifest's `routing` object: schemes and host, each checked, with the defaults of
    /// ``RoutingSettings/standard`` for the fields left out.
    mutating func readRouting(_ value: JSONValue) -> RoutingSettings? {
        guard case .object(let members) = value.kind else {
            wrongType("routing", value, expected: "an object with \"scheme\", \"externalSchemes\" and \"host\"")
            return nil
        }
        checkFields(members, known: ManifestReader.routingFields, path: "routing", what: "the routing settings")
        let standard = RoutingSettings.standard
        let scheme = readScheme(value.member("scheme"), path: "routing.scheme") ?? standard.scheme
        var external = standard.externalSchemes
        if let list = value.member("externalSchemes") {
            external = readExternalSchemes(list, inApp: scheme)
        } else if external.contains(scheme), let given = value.member("scheme") {
            error(.invalidRouting, "routing.scheme", given.location,
                  "the in-app scheme \"\(scheme)\" is also the default external scheme; name the external schemes (\"externalSchemes\") too")
        }
        var host = standard.host
        if let value = value.member("host") {
            if case .string(let text) = value.kind, RoutingSettings.isHost(text) {
                host = text
            } else {
                wrongType("routing.host", value, expected: "a host name of lowercase ASCII letters, digits, \"-\" and \".\", like \"app\"")
            }
        }
        return RoutingSettings(scheme: scheme, externalSchemes: external, host: host)
    }

    private mutating func readScheme(_ value: JSONValue?, path: String) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value.kind, RoutingSettings.isScheme(text) else {
            wrongType(path, value, expected: "a URL scheme: a lowercase letter, then lowercase letters, digits, \"+\", \"-\" or \".\", like \"modulehost\"")
            return nil
        }
        return text
    }

    private mutating func readExternalSchemes(_ value: JSONValue, inApp scheme: String) -> [String] {
        guard case .array(let elements) = value.kind else {
            wrongType("routing.externalSchemes", value, expected: "an array of URL schemes")
            return []
        }
        var schemes: [String] = []
        for (index, element) in elements.enumerated() where !sink.isFull {
            let path = "routing.externalSchemes[\(index)]"
            guard let text = readScheme(element, path: path) else { continue }
            if text == scheme {
                error(.invalidRouting, path, element.location,
                      "the external scheme \"\(text)\" is also the in-app scheme (routing.scheme); another program could then open in-app-only routes. Use a scheme of its own")
            } else if schemes.contains(text) {
                error(.invalidRouting, path, element.location, "the external scheme \"\(text)\" is listed twice")
            } else {
                schemes.append(text)
            }
        }
        return schemes
    }

    /// A module entry's `routes` object: overrides keyed by route identifier.
    mutating func readRouteOverrides(_ value: JSONValue?, path: String) -> [String: RouteOverride] {
        guard let value else { return [:] }
        guard case .object(let members) = value.kind else {
            wrongType(path, value, expected: "an object keyed by route identifier, like {\"numbers.fact\": {\"external\": false}}")
            return [:]
        }
        checkRepeatedKeys(members, path: path)
        var overrides: [String: RouteOverride] = [:]
        for member in members where !sink.isFull {
            let routePath = ManifestReader.Context.memberPath(path, member.key)
            guard case .object(let fields) = member.value.kind else {
                wrongType(routePath, member.value, expected: "an object with \"external\" or \"enabled\"")
                continue
            }
            checkFields(fields, known: ManifestReader.routeOverrideFields, path: routePath, what: "route overrides")
            overrides[member.key] = RouteOverride(
                external: readBool(member.value, "external", path: routePath),
                enabled: readBool(member.value, "enabled", path: routePath),
                location: .init(member.keyLocation))
        }
        return overrides
    }
}
