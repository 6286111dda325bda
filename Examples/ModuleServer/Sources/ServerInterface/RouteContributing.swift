import Hummingbird
import ModuleHost

/// What a module adopts to add routes to the server, contributed to the ``ModuleHost/ExtensionPoint/httpRoutes``
/// extension point. The server builds its router from the point's contributions; it never imports a module, and it
/// instantiates only the modules that contribute routes. (It is not declared as a bridge service: a service has
/// exactly one provider, and here every module may contribute.)
///
/// ```swift
/// public final class GreetingModule: ModuleProtocol, RouteContributing {
///     public static let moduleIdentifier: ModuleIdentifier = "example.greeting"
///     public static let contributions: [Contribution] = [.module(GreetingModule.self, to: .httpRoutes) { $0 }]
///     public init(context: any ModuleContext) {}
///     public func addRoutes(to router: Router<BasicRequestContext>) {
///         router.get("hello") { _, _ in "Hello!" }
///     }
/// }
/// ```
public protocol RouteContributing: Sendable {
    /// Adds the module's routes to `router`.
    func addRoutes(to router: Router<BasicRequestContext>)
}

extension ExtensionPoint where Value == any RouteContributing {
    /// The server's HTTP routes: modules contribute themselves as ``RouteContributing``.
    public static var httpRoutes: Self { ExtensionPoint("server.http-routes") }
}

extension ModuleManager {
    /// A router with the routes contributed to ``ModuleHost/ExtensionPoint/httpRoutes``, in manifest order. Each
    /// contributing module is resolved through the bridge, which loads it (and the modules it requires); a module
    /// that contributes no route is not instantiated. A module that fails to load makes this throw the bridge's
    /// error, which names it. Declare the point (`declare(.httpRoutes)`) before registering the manifest.
    public func makeRouter() throws -> Router<BasicRequestContext> {
        let router = Router()
        for contribution in extensions(of: .httpRoutes) {
            try contribution.value().addRoutes(to: router)
        }
        return router
    }
}
