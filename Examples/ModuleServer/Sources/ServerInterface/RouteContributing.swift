import Hummingbird
import ModuleHost

/// What a module adopts to add routes to the server. The server resolves every module in the manifest through the
/// bridge and asks those that adopt it for their routes; it never imports a module. (It is not declared as a
/// bridge service: a service has exactly one provider, and here every module may contribute.)
///
/// ```swift
/// public final class GreetingModule: ModuleProtocol, RouteContributing {
///     public static let moduleIdentifier: ModuleIdentifier = "example.greeting"
///     public init() {}
///     public func addRoutes(to router: Router<BasicRequestContext>) {
///         router.get("hello") { _, _ in "Hello!" }
///     }
/// }
/// ```
public protocol RouteContributing: Sendable {
    /// Adds the module's routes to `router`.
    func addRoutes(to router: Router<BasicRequestContext>)
}

extension ModuleManager {
    /// A router with the routes of every registered module that adopts ``RouteContributing``, in manifest order.
    /// Each module is resolved through the bridge, which loads it (and the modules it requires); a module that
    /// fails to load makes this throw the bridge's error, which names it.
    public func makeRouter() throws -> Router<BasicRequestContext> {
        let router = Router()
        for module in modules {
            if let contributor = try bridge.resolve(module.identifier) as? any RouteContributing {
                contributor.addRoutes(to: router)
            }
        }
        return router
    }
}
