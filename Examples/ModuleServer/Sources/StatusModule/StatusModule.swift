import Hummingbird
import Logging
import ModuleHost
import ServerInterface
import Synchronization

extension ModuleIdentifier {
    /// `example.status`.
    public static let status: ModuleIdentifier = "example.status"
}

/// Serves `GET /status` (`ok`) and `GET /modules` (the loaded modules, one a line). It requires the greeting
/// module, so it loads after it and is unloaded before it.
public final class StatusModule: ModuleProtocol, RouteContributing {
    public static let moduleIdentifier: ModuleIdentifier = .status
    public static let requiredModules: [ModuleIdentifier] = ["example.greeting"]
    /// Its routes, through the server's extension point.
    public static let contributions: [Contribution] = [.module(StatusModule.self, to: .httpRoutes) { $0 }]

    private let manager = ManagerReference()
    private let logger = Logger(label: "example.status")

    public init(context: any ModuleContext) {}

    public func moduleDidLoad(with manager: any ModuleContext) throws {
        self.manager.set(manager as? ModuleManager)
    }

    public func addRoutes(to router: Router<BasicRequestContext>) {
        let manager = manager
        router.get("status") { _, _ in "ok\n" }
        router.get("modules") { _, _ in
            (manager.value?.modules.filter { $0.state == .loaded }.map { "\($0.identifier)\n" } ?? []).joined()
        }
    }

    /// Stands in for closing a connection: a real suspension that shutdown awaits.
    public func moduleTearDown() async {
        logger.info("\(TeardownLog.began("\(Self.moduleIdentifier)"))")
        try? await Task.sleep(for: .milliseconds(100))
        logger.info("\(TeardownLog.finished("\(Self.moduleIdentifier)"))")
    }
}

/// The manager, held weakly so the module does not keep it alive.
final class ManagerReference: Sendable {
    private let storage = Mutex(WeakManager())
    var value: ModuleManager? { storage.withLock { $0.manager } }
    func set(_ manager: ModuleManager?) { storage.withLock { $0.manager = manager } }
}

struct WeakManager: @unchecked Sendable {
    weak var manager: ModuleManager?
}
