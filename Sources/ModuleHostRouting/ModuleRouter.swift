import ModuleHost

/// Opens links to the routes modules declare (the seed's navigation), for the app itself and for other programs.
///
/// ```swift
/// let result = try await manager.router.open("/numbers/fact/28")
/// print(result.output.text)
/// ```
/// Opening a link parses it, checks its scheme and host, finds its route, refuses a link from another program
/// unless that exact route is external (a path that names no route is refused too, never passed on), loads the
/// route's module if it is not loaded, asks the module whether to pass, reject or redirect, then runs the route's
/// target with its decoded parameters and reports it through ``events()``. Many links may open at once.
public final class ModuleRouter: Sendable {
    let registry: ModuleRegistry
    private let table = Locked<RouteTable?>(nil)
    private let streams = RouteEventStreams()


    init(registry: ModuleRegistry) {
        self.registry = registry
    }

    deinit {
        streams.finishAll()
    }

    /// Opens `url`, coming from `source` (the app itself unless told otherwise); returns what its target returned.
    ///
    /// Inside the app a link may be a bare path, such as `/numbers/fact/28`. Throws a ``RouteError`` that says
    /// what was wrong: a link that is not valid or too long, a wrong scheme or host, no such route (with the
    /// closest one), an in-app-only route opened from outside, a parameter that does not decode, a module that
    /// cannot load, a rejection, a redirect loop, or a target that threw.
    ///
    /// - Parameters:
    ///   - url: The link, or a bare path inside the app.
    ///   - source: Where it comes from.
    /// - Returns: What the route's target returned.
    /// - Throws: ``RouteError``, as said above.
    public func open(_ url: String, from source: RouteRequest.Source = .inApp) async throws(RouteError) -> Result {
        do {
            return try await follow(url, from: source)
        } catch {
            streams.yield(.refused(error))
            throw error
        }
    }

    /// Every enabled route, in registration order.
    public var routes: [RouteDescription] {
        currentTable().routes.map(RouteDescription.init)
    }

    /// The scheme and host links to this app use.
    package var settings: RoutingSettings {
        currentTable().settings
    }

    /// A stream of what happens as links open, from now on: will and did open, and refusals. It ends when the
    /// router goes away, and keeps at most the newest 1,024 events a slow consumer has not read. An event not yet
    /// read holds its ``RouteRequest``, and so the manager: a manager dropped meanwhile goes away, and the stream
    /// ends, once those events are read or the stream is dropped.
    ///
    /// - Returns: The stream.
    public func events() -> AsyncStream<Event> {
        streams.open()
    }

    /// Sends `event` to every ``events()`` stream.
    func emit(_ event: Event) {
        streams.yield(event)
    }

    /// Forgets the table, so the next open sees the routes registered since.
    package func registrationsChanged() {
        table.withLock { $0 = nil }
    }

    func currentTable() -> RouteTable {
        table.withLock { table in
            if let table { return table }
            let registered = registry.routing()
            let built = RouteTable(registered.registrations.flatMap(RegisteredRoute.routes(of:)), settings: registered.settings)
            table = built
            return built
        }
    }

    /// Opens `url` and the links its handlers redirect to, at most 8 of them.
    private func follow(_ url: String, from source: RouteRequest.Source) async throws(RouteError) -> Result {
        var chain: [String] = []
        var next = url
        while true {
            let (request, registered) = try request(for: next, from: source, after: chain)
            let module = try load(request)
            switch await (module as? any ModuleRouteHandler)?.decision(for: request) ?? .pass {
            case .pass:
                return try await run(request, registered)
            case .reject(let reason):
                throw RouteError(.rejected, url: request.url, route: request.route,
                                 "module \"\(request.module)\" rejected \(request.url): \(reason)", redirects: chain)
            case .redirect(let target):
                chain.append(request.url)
                next = try checkRedirect(to: target, after: chain, from: request)
            }
        }
    }

    /// `target` written in full (a bare path takes the scheme and host of the link that redirected, so it keeps that
    /// link's standing), unless following it would loop or pass the limit.
    private func checkRedirect(to target: String, after chain: [String], from request: RouteRequest) throws(RouteError) -> String {
        var absolute = target
        if target.hasPrefix("/"), let separator = request.url.firstRange(of: "://") {
            let afterScheme = request.url[separator.upperBound...]
            let hostEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
            absolute = String(request.url[..<hostEnd]) + target
        }
        let settings = currentTable().settings
        let canonical = (try? RouteURL.parse(absolute, defaults: settings, allowsPath: false).canonical) ?? absolute
        if chain.contains(canonical) {
            let loop = chain + [canonical]
            throw RouteError(.redirectLoop, url: canonical, route: request.route,
                             "the redirects loop: \(loop.joined(separator: " -> "))", redirects: loop)
        }
        guard chain.count < RouteLimits.redirects else {
            throw RouteError(.tooManyRedirects, url: canonical, route: request.route,
                             "more than \(RouteLimits.redirects) redirects: \((chain + [canonical]).joined(separator: " -> "))",
                             redirects: chain + [canonical])
        }
        return absolute
    }
}
