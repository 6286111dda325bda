#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs the app modules' startup operations in phases, respecting dependencies, in parallel where
/// allowed, and reports exactly what happened.
///
/// Phases run in ``ModuleStartupOperation/Priority`` order. `start()` runs the blocking phases: `.high` one operation at a time, each
/// called from the main actor, so a `.high` body, a plain closure included, starts on the main actor (see
/// ``StartupOperationBody`` for the details and the exceptions); then `.asyncHigh` concurrently, called off the main
/// actor. `hostDidBecomeReady()` releases `.afterFirstFrame` and `.low`, and `hostDidBecomeIdle()` releases
/// `.idle`, whose bodies are called off the main actor too. Every method is thread-safe; no lock is held while
/// user code runs.
public final class Initiator: Sendable {

    /// The most operations a concurrent phase runs at once (at least 1).
    package let maxConcurrentOperations: Int
    let operationSource: @Sendable () throws -> [StartupOperation]
    let state = Locked(InitiatorState())

    /// Creates an initiator whose concurrent phases run at most `maxConcurrentOperations` operations at once.
    ///
    /// - Parameter maxConcurrentOperations: The most operations a concurrent phase runs at once (at least 1); the active processors by default.
    public convenience init(maxConcurrentOperations: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.init(maxConcurrentOperations: maxConcurrentOperations, operationSource: { [] })
    }

    /// Creates an initiator that also runs the operations `operationSource` returns (called once, at
    /// `start()`); they come before operations added in code in tie-break order.
    init(maxConcurrentOperations: Int, operationSource: @escaping @Sendable () throws -> [StartupOperation]) {
        self.maxConcurrentOperations = max(1, maxConcurrentOperations)
        self.operationSource = operationSource
    }

    /// Adds an operation; throws `InitiatorError` (`addedAfterStart`) once `start()` has been called.
    /// Identifiers and dependencies are validated, all at once, by `start()`.
    func add(_ operation: StartupOperation) throws {
        guard state.withLock({ $0.add(operation) }) else { throw Self.addedAfterStart(operation.identifier) }
    }

    /// The error for an operation added once `start()` has been called.
    private static func addedAfterStart(_ identifier: String) -> InitiatorError {
        InitiatorError(code: .addedAfterStart,
                       message: "cannot add startup operation \"\(identifier)\": the initiator has already started")
    }

    /// Adds an operation: `operation` runs in phase `priority` once every operation named in `dependencies` (in
    /// the same or an earlier phase) has succeeded. Identifiers and dependencies are validated, all at once, by
    /// `start()`.
    ///
    /// - Parameters:
    ///   - identifier: The operation's name, unique among all startup operations.
    ///   - module: The module reports name as the operation's; `nil` for the host's own.
    ///   - priority: The phase the operation runs in.
    ///   - dependencies: Operations that must succeed before this one starts.
    ///   - failurePolicy: Whether a failure stops startup; `nil` means the phase's default.
    ///   - timeout: How long the operation may run; `nil` means no limit.
    ///   - operation: The work.
    /// - Throws: `InitiatorError` (`addedAfterStart`) once `start()` has been called.
    public func add(
        _ identifier: String,
        module: ModuleIdentifier? = nil,
        priority: ModuleStartupOperation.Priority,
        dependencies: [String] = [],
        failurePolicy: ModuleStartupOperation.FailurePolicy? = nil,
        timeout: Duration? = nil,
        operation: @escaping StartupOperationBody
    ) throws {
        // The operation is built in place in the lock, so it is not copied (nor its references retained) again.
        let added = state.withLock { state in
            guard state.acceptsOperations else { return false }
            state.added.append(StartupOperation(identifier, module: module, priority: priority, dependencies: dependencies,
                                                failurePolicy: failurePolicy, timeout: timeout, body: operation))
            return true
        }
        guard added else { throw Self.addedAfterStart(identifier) }
    }

    /// A snapshot of what has happened so far; operations not yet run are shown as pending.
    public var report: StartupReport {
        state.withLock { $0.makeReport() }
    }

    /// The validated plan once `start()` has planned it (for rendering with `dotGraph()`/`mermaidGraph()`).
    package var plan: StartupPlan? {
        state.withLock { $0.plan }
    }

    /// A stream of progress events from now on; it ends after `.finished`. Each access makes a new stream.
    public var events: AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        let id: Int? = state.withLock { state in
            guard !state.isFinished else { return nil }
            let id = state.makeID()
            state.subscribers[id] = continuation
            return id
        }
        if let id {
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
            }
        } else {
            continuation.finish()
        }
        return stream
    }
}
