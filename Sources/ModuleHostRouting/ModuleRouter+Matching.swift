import ModuleHost

extension ModuleRouter {
    /// The request `url` makes: parsed, its scheme and host checked for `source`, its route found and allowed, and
    /// its parameters decoded.
    func request(for url: String, from source: RouteRequest.Source, after redirects: [String]) throws(RouteError) -> (RouteRequest, RegisteredRoute) {
        let table = currentTable()
        let settings = table.settings
        // The scheme first: a link of another scheme (`file:///etc/passwd`) is refused for its scheme, not its host.
        if let scheme = RouteURL.scheme(of: url) { try check(scheme: scheme, url: url, from: source, settings: settings) }
        let link = try RouteURL.parse(url, defaults: settings, allowsPath: source == .inApp)
        try check(link, from: source, settings: settings)
        guard let (registered, values) = table.match(link.segments) else {
            let suggestion = table.closest(to: link.segments) { source == .inApp || $0.isExternal }
            let refusal = source == .external ? "; a link from another program opens only routes marked external" : ""
            throw RouteError(.routeNotFound, url: link.canonical,
                             "no route matches \(DisplayText.quoted("/" + link.segments.joined(separator: "/"), with: "'"))\(refusal)",
                             suggestion: suggestion, redirects: redirects)
        }
        let route = registered.route
        guard source == .inApp || registered.isExternal else {
            throw RouteError(.notExternal, url: link.canonical, route: route.identifier,
                             "the route \"\(route.identifier)\" (\(route.pattern)) opens only from inside the app; another program may not open it",
                             redirects: redirects)
        }
        let parameters = try decode(values, query: link.query, for: registered, url: link.canonical)
        guard let manager = registry.owner.context else {
            throw RouteError(.moduleUnavailable, url: link.canonical, route: route.identifier, "the manager that owned this router no longer exists")
        }
        let request = RouteRequest(url: link.canonical, route: route.identifier, module: registered.module,
                                   parameters: parameters, source: source, redirects: redirects, manager: manager)
        return (request, registered)
    }

    private func check(_ link: RouteURL, from source: RouteRequest.Source, settings: RoutingSettings) throws(RouteError) {
        try check(scheme: link.scheme, url: link.canonical, from: source, settings: settings)
        guard link.host == settings.host else {
            throw RouteError(.wrongHost, url: link.canonical, "the host \"\(link.host)\" is not this app's; use \"\(settings.host)\"")
        }
    }

    /// Refuses `scheme` unless links from `source` may use it, naming it and the schemes they may use.
    private func check(scheme: String, url: String, from source: RouteRequest.Source, settings: RoutingSettings) throws(RouteError) {
        let allowed = source == .external ? settings.externalSchemes : [settings.scheme] + settings.externalSchemes
        guard !allowed.contains(scheme) else { return }
        let list = allowed.map { "\"\($0)\"" }.joined(separator: " or ")
        let why = source == .external && scheme == settings.scheme
            ? "\"\(scheme)\" is the in-app scheme, which another program may not use; use \(list)"
            : "the scheme \"\(scheme)\" is not this app's; use \(list)"
        throw RouteError(.wrongScheme, url: url, why)
    }

    /// Decodes the path parameters and query items, naming the first that does not decode and what it expects.
    private func decode(_ values: [String: String], query: [(name: String, value: String)], for registered: RegisteredRoute,
                        url: String) throws(RouteError) -> RouteRequest.Parameters {
        let route = registered.route
        func failure(_ message: String) -> RouteError {
            RouteError(.invalidParameter, url: url, route: route.identifier, "\(route.pattern): \(message)")
        }
        var decoded: [String: RouteRequest.Parameters.Value] = [:]
        for name in registered.pattern.parameterNames {
            let parameter = route.parameters.first { $0.name == name } ?? .text(name)
            let raw = values[name] ?? ""
            guard let value = parameter.decode(raw) else {
                throw failure("the parameter \"\(name)\" is \(DisplayText.quoted(String(raw.prefix(64)), with: "'")); expected \(parameter.expected)")
            }
            decoded[name] = value
        }
        for item in query {
            guard let parameter = route.query.first(where: { $0.name == item.name }) else {
                let known = route.query.isEmpty ? "it reads none" : "it reads " + route.query.map { "\"\($0.name)\"" }.joined(separator: ", ")
                throw failure("the query item \(DisplayText.quoted(item.name, with: "\"")) is not one the route reads; \(known)")
            }
            guard let value = parameter.decode(item.value) else {
                throw failure("the query item \"\(item.name)\" is \(DisplayText.quoted(String(item.value.prefix(64)), with: "'")); expected \(parameter.expected)")
            }
            decoded[item.name] = value
        }
        for parameter in route.query where parameter.isRequired && decoded[parameter.name] == nil {
            throw failure("the query item \"\(parameter.name)\" is missing; expected \(parameter.expected)")
        }
        return RouteRequest.Parameters(decoded)
    }
}
