#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GreetingModule
import Hummingbird
import Logging
import ModuleHost
import ModuleHostState
import ModuleHostLogging
import ModuleHostServiceLifecycle
import ServerInterface
import ServiceLifecycle
import StatusModule
import UnixSignals

/// The server: modules from a manifest, an HTTP server with their routes, both run by one `ServiceGroup`.
///
/// The group starts the modules (``ModuleHostService``) and, once their blocking startup phases have finished,
/// the HTTP server. On SIGTERM or SIGINT it shuts down in reverse: the HTTP server stops, then the modules unload
/// in reverse load order, each module's asynchronous teardown awaited.
struct ModuleServer {
    /// The module types this server links; the manifest chooses which of them run, and configures them.
    static let moduleTypes: [any ModuleProtocol.Type] = [GreetingModule.self, StatusModule.self]

    let manager: ModuleManager
    let modules: ModuleHostService
    let group: ServiceGroup

    /// Reads the manifest at `options.manifest`, builds the router from the modules, and prepares the group.
    /// `onListening` is called with the port once the server accepts connections.
    init(options: ServerOptions, logger: Logger, signals: [UnixSignal] = [.sigterm, .sigint],
         onListening: @escaping @Sendable (Int) async -> Void = { _ in }) throws {
        manager = ModuleManager(typeResolver: .types(Self.moduleTypes))
        manager.provide(HostEnvironment(stateDirectory: URL(fileURLWithPath: ".module-server", isDirectory: true),
                                        manifestDirectory: URL(fileURLWithPath: options.manifest).deletingLastPathComponent(),
                                        report: logger.noticeReporter),
                        as: HostEnvironment.self)
        // A module that lists its neighbours asks the server, not the manager (it is not handed one).
        manager.provide(LoadedModules { [weak manager] in
            manager?.modules.filter { $0.state == .loaded }.map(\.identifier) ?? []
        }, as: LoadedModules.self)
        manager.declare(.httpRoutes)
        for diagnostic in try manager.registerModules(withConfigFilePath: URL(fileURLWithPath: options.manifest)) {
            logger.warning("\(diagnostic)")
        }
        modules = ModuleHostService(manager: manager, logger: logger)
        let router = try manager.makeRouter()
        let application = Application(
            router: router,
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "module-server"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                logger.notice("listening on \(options.host):\(port)")
                await onListening(port)
            },
            logger: logger)
        group = ServiceGroup(configuration: .init(
            services: [modules, AfterModuleStartup(modules, run: application)],
            gracefulShutdownSignals: signals,
            logger: logger))
        logger.logEvents(of: manager.initiator)
    }

    /// Runs until a signal (or a failure) stops the group.
    func run() async throws {
        try await group.run()
    }
}
