import ModuleHost

extension ModuleRouter {
    /// The route's module, loaded on first use.
    func load(_ request: RouteRequest) throws(RouteError) -> any ModuleProtocol {
        do {
            return try registry.module(request.module)
        } catch {
            throw RouteError(.moduleUnavailable, url: request.url, route: request.route,
                             "the route \"\(request.route)\" belongs to module \"\(request.module)\", which could not be loaded",
                             redirects: request.redirects, underlyingError: error)
        }
    }

    /// Runs the route's target, telling the event streams before and after.
    func run(_ request: RouteRequest, _ registered: RegisteredRoute) async throws(RouteError) -> Result {
        emit(.willOpen(request))
        let output: ModuleCommand.Output
        do {
            output = try await registered.route.target(request)
        } catch {
            emit(.didOpen(request, succeeded: false))
            throw RouteError(.targetFailed, url: request.url, route: request.route,
                             "the route \"\(request.route)\" failed", redirects: request.redirects, underlyingError: error)
        }
        emit(.didOpen(request, succeeded: true))
        return Result(route: RouteDescription(registered), url: request.url, redirects: request.redirects, output: output)
    }
}
