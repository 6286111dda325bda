import ModuleHost
import ServiceLifecycle

/// Runs a service once a ``ModuleHostService``'s blocking startup phases have finished: an HTTP server that must
/// not take requests before the modules are up, say. List it after the module service, so that the group, which
/// shuts down in reverse order, stops it before the modules unload.
///
/// If startup fails, the wrapped service never runs: this one waits until the group, failed by the module
/// service's error, cancels it. A graceful shutdown before startup finished stops the wait.
///
/// ```swift
/// let group = ServiceGroup(configuration: .init(
///     services: [modules, AfterModuleStartup(modules, run: httpServer)],
///     gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
/// ```
public struct AfterModuleStartup: Service {
    /// The module service to wait for.
    public let modules: ModuleHostService
    /// The service to run once the modules are running.
    public let service: any Service

    /// Runs `service` after `modules` is running.
    public init(_ modules: ModuleHostService, run service: any Service) {
        self.modules = modules
        self.service = service
    }

    /// Waits for the modules (or a graceful shutdown), then runs the service.
    public func run() async throws {
        let modules = modules
        do {
            _ = try await cancelWhenGracefulShutdown { try await modules.waitUntilRunning() }
        } catch {
            // The modules failed (their service fails the group) or the group is shutting down: wait for the end.
            try? await gracefulShutdown()
            return
        }
        try await service.run()
    }
}
