import Logging
import ModuleHost
import ServiceLifecycle
import Synchronization

/// Runs a ``ModuleHost/ModuleManager`` as a swift-service-lifecycle `Service` in a `ServiceGroup`.
///
/// `run()` loads the eager modules and runs the blocking startup phases (`.high`, `.asyncHigh`); once they have
/// finished the service is running (``waitUntilRunning()`` returns), and it signals the host ready and idle so the
/// later phases run. On graceful shutdown (SIGTERM or SIGINT through the group) or cancellation it cancels what is
/// left of startup, waits for the initiator to settle, then unloads the modules in reverse load order, awaiting
/// each module's asynchronous teardown for at most ``teardownTimeLimit``; a teardown that hangs is logged as an
/// error naming the module and is not waited for. A module that fails at startup makes `run()` throw a
/// ``ModuleHostServiceError`` naming it (after unloading what had loaded).
///
/// ```swift
/// let manager = ModuleManager()
/// try manager.registerModules(withConfigFilePath: URL(fileURLWithPath: "modules.json"))
/// let modules = ModuleHostService(manager: manager, logger: logger)
/// let group = ServiceGroup(configuration: .init(
///     services: [modules, server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
/// try await group.run()
/// ```
///
/// swift-service-lifecycle 2.13 has no notion of a service being "ready"; ``waitUntilRunning()`` is this
/// package's own signal, for services that must start after the modules (such as an HTTP server).
public final class ModuleHostService: Service {
    /// The manager whose modules this service starts and unloads.
    public let manager: ModuleManager
    /// How long each module's asynchronous teardown may run at shutdown.
    public let teardownTimeLimit: Duration
    private let logger: Logger
    private let readiness = Readiness()
    private let teardowns = Teardowns()

    /// A service for `manager`: `teardownTimeLimit` bounds each module's teardown; `logger` hears of startup
    /// failures, hung teardowns and (at debug level) each module unloaded.
    public init(manager: ModuleManager, teardownTimeLimit: Duration = .seconds(5),
                logger: Logger = Logger(label: "ModuleHostService")) {
        self.manager = manager
        self.teardownTimeLimit = teardownTimeLimit
        self.logger = logger
    }

    /// Starts the modules, waits for graceful shutdown or cancellation, then unloads them.
    public func run() async throws {
        switch await start() {
        case .failure(let error):
            readiness.settle(.failure(error))
            logger.error("\(error)", metadata: error.module.map { ["module": "\($0)"] } ?? [:])
            await unload()
            throw error
        case .success(nil):
            // Shut down (or cancelled) while starting: not a failure.
            readiness.settle(.failure(.shutDownBeforeRunning))
            await unload()
        case .success(let report?):
            readiness.settle(.success(report))
            manager.initiator.hostDidBecomeIdle()
            try? await gracefulShutdown()
            manager.initiator.cancel()
            _ = await manager.initiator.waitUntilFinished()
            await unload()
        }
    }

    /// Waits until the blocking startup phases have finished and returns their report. Throws the startup failure
    /// instead if startup failed, and ``ModuleHostServiceError/Code/notRunning`` if the service was shut down
    /// before startup finished or the calling task is cancelled.
    @discardableResult
    public func waitUntilRunning() async throws(ModuleHostServiceError) -> StartupReport {
        try await readiness.wait().get()
    }

    /// The teardown records of the last shutdown, in the order the modules were unloaded (empty before one).
    public var teardownRecords: [ModuleTeardownRecord] { teardowns.records }

    /// Loads the eager modules and runs the blocking phases; a shutdown during them cancels startup.
    /// Returns the report, `nil` when shut down before it finished, or the failure.
    private func start() async -> Result<StartupReport?, ModuleHostServiceError> {
        if let failure = eagerLoadFailure() { return .failure(failure) }
        let initiator = manager.initiator
        do {
            let report = try await withGracefulShutdownHandler {
                try await initiator.start()
            } onGracefulShutdown: {
                initiator.cancel()
            }
            return .success(report)
        } catch let error as InitiatorError where error.code == .cancelled {
            return .success(nil)
        } catch {
            return .failure(.startupFailed(error))
        }
    }

    /// The first eager module that failed to load, as an error naming it.
    private func eagerLoadFailure() -> ModuleHostServiceError? {
        guard !manager.loadEagerModules().isEmpty,
              let failed = manager.modules.first(where: { $0.eager && $0.state == .failed }) else { return nil }
        return .moduleFailedToLoad(failed.identifier, failed.failure ?? "unknown failure")
    }

    /// Unloads every module, awaiting each teardown for at most the time limit, and logs the outcome.
    private func unload() async {
        let records = await manager.unloadAll(teardownTimeLimit: teardownTimeLimit)
        teardowns.set(records)
        for record in records {
            let metadata: Logger.Metadata = ["module": "\(record.module)", "outcome": "\(record.outcome.rawValue)",
                                             "duration_ms": "\(record.duration / .milliseconds(1))"]
            switch record.outcome {
            case .finished, .notAwaited: logger.debug("\(record)", metadata: metadata)
            case .timedOut: logger.error("\(record)", metadata: metadata)
            }
        }
    }
}

/// The records of the last teardown, readable from any thread.
private final class Teardowns: Sendable {
    private let storage = Mutex<[ModuleTeardownRecord]>([])
    var records: [ModuleTeardownRecord] { storage.withLock { $0 } }
    func set(_ records: [ModuleTeardownRecord]) { storage.withLock { $0 = records } }
}
