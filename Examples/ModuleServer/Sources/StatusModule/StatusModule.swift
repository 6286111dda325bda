import Hummingbird
import Logging
import ModuleHost
import ServerInterface

extension ModuleIdentifier {
    /// `example.status`.
    public static let status: ModuleIdentifier = "example.status"
}

/// Serves `GET /status` (`ok`) and `GET /modules` (the loaded modules, one a line, from the host's `LoadedModules`). It requires the greeting
/// module, so it loads after it and is unloaded before it.
public final class StatusModule: ModuleProtocol, RouteContributing {
    public static let moduleIdentifier: ModuleIdentifier = .status
    public static let requiredModules: [ModuleIdentifier] = ["example.greeting"]
    /// Its routes, through the server's extension point.
    public static let contributions: [Contribution] = [.module(StatusModule.self, to: .httpRoutes) { $0 }]

    private let loaded: LoadedModules?
    private let logger = Logger(label: "example.status")

    /// Gets the server's listing of loaded modules, if the host provides one (constructor injection: it is fixed
    /// when the module is created).
    public init(context: any ModuleContext) throws {
        loaded = try context.bridge.resolveIfProvided(LoadedModules.self)
    }

    public func addRoutes(to router: Router<BasicRequestContext>) {
        let loaded = loaded
        router.get("status") { _, _ in "ok\n" }
        router.get("modules") { _, _ in (loaded?.identifiers ?? []).map { "\($0)\n" }.joined() }
    }

    /// Stands in for closing a connection: a real suspension that shutdown awaits.
    public func moduleTearDown() async {
        logger.info("\(TeardownLog.began("\(Self.moduleIdentifier)"))")
        try? await Task.sleep(for: .milliseconds(100))
        logger.info("\(TeardownLog.finished("\(Self.moduleIdentifier)"))")
    }
}
