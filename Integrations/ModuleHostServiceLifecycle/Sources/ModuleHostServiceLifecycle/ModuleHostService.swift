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

    /// A service for `manager`: `teardownTimeLimit` bounds each module's teardown; `logger` hears, at info level,
    /// what started (the modules loaded and the blocking phases' operations, when they have finished) and each module
    /// torn down, and, as errors, startup failures and hung teardowns.
    public init(manager: ModuleManager, teardownTimeLimit: Duration = .seconds(5),
                logger: Logger = Logger(label: "ModuleHostService")) {
        self.manager = manager
        self.teardownTimeLimit = teardownTimeLimit
        self.logger = logger
    }

    /// Starts the modules, waits for graceful shutdown or cancellation, then unloads them: the manager's
    /// one-call ``ModuleHost/ModuleManager/run(teardownTimeLimit:laterPhases:onTeardown:_:)``, with graceful shutdown as the
    /// end of the host's work.
    public func run() async throws {
        let initiator = manager.initiator
        let readiness = readiness
        // Loaded here first to name a module that fails (the manager's `run` throws its error, and forgets its
        // state when it unloads); `run` then finds them loaded, or the same failure.
        let eagerFailure = eagerLoadFailure()
        // Waiters hear of a failure, or of a shutdown during startup, before what loaded is unloaded.
        if let eagerFailure { readiness.settle(.failure(eagerFailure)) }
        do {
            try await withGracefulShutdownHandler {
                try await manager.run(teardownTimeLimit: teardownTimeLimit, onTeardown: record) { report in
                    logStarted(report)
                    readiness.settle(.success(report))
                    try? await gracefulShutdown()
                }
            } onGracefulShutdown: {
                // Ignored once running: the first outcome settles.
                readiness.settle(.failure(.shutDownBeforeRunning))
                initiator.cancel()
            }
        } catch let error as InitiatorError where error.code == .cancelled {
            // Shut down (or cancelled) while starting: not a failure.
            readiness.settle(.failure(.shutDownBeforeRunning))
        } catch {
            let failure = eagerFailure ?? .startupFailed(error)
            readiness.settle(.failure(failure))
            logger.error("\(failure)", metadata: failure.module.map { ["module": "\($0)"] } ?? [:])
            throw failure
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
    public var teardownRecords: [ModuleManager.TeardownRecord] { teardowns.records }

    /// Loads the eager modules; the error naming the first that failed, if one did.
    private func eagerLoadFailure() -> ModuleHostServiceError? {
        guard !manager.loadEagerModules().isEmpty,
              let failed = manager.modules.first(where: { $0.eager && $0.state == .failed }) else { return nil }
        return .moduleFailedToLoad(failed.identifier, failed.failure ?? "unknown failure")
    }

    /// Logs, at info level, what started: the modules loaded, and the blocking phases' operations with their outcome.
    private func logStarted(_ report: StartupReport) {
        let loaded = manager.modules.filter { $0.state == .loaded }.map { "\($0.identifier)" }
        logger.info("modules started", metadata: [
            "modules": .array(loaded.map { .string($0) }),
            "operations": .array(report.operations.map { .string("\($0.identifier): \($0.state.rawValue)") }),
        ])
    }

    /// Keeps the teardown records and logs them: each module torn down at info level, one that timed out as an
    /// error naming the module, then that the modules stopped.
    private func record(_ records: [ModuleManager.TeardownRecord]) {
        teardowns.set(records)
        for record in records {
            let metadata: Logger.Metadata = ["module": "\(record.module)", "outcome": "\(record.outcome.rawValue)",
                                             "duration_ms": "\(record.duration / .milliseconds(1))"]
            switch record.outcome {
            case .finished: logger.info("\(record)", metadata: metadata)
            case .timedOut: logger.error("\(record)", metadata: metadata)
            }
        }
        logger.info("modules stopped", metadata: ["modules": .array(records.map { .string("\($0.module)") })])
    }
}

/// The records of the last teardown, readable from any thread.
private final class Teardowns: Sendable {
    private let storage = Mutex<[ModuleManager.TeardownRecord]>([])
    var records: [ModuleManager.TeardownRecord] { storage.withLock { $0 } }
    func set(_ records: [ModuleManager.TeardownRecord]) { storage.withLock { $0 = records } }
}
