import Foundation

/// Runs the app modules' startup operations in phases, respecting dependencies, in parallel where
/// allowed, and reports exactly what happened.
///
/// Phases run in `Priority` order. `start()` runs the blocking phases: `.high` one operation at a time, each
/// called from the main actor, so a `.high` body, a plain closure included, starts on the main actor (see
/// ``Operation`` for the details and the exceptions); then `.asyncHigh` concurrently, called off the main
/// actor. `hostDidBecomeReady()` releases `.afterFirstFrame` and `.low`, and `hostDidBecomeIdle()` releases
/// `.idle`, whose bodies are called off the main actor too. Every method is thread-safe; no lock is held while
/// user code runs.
public final class Initiator: Sendable {
    /// The work of one startup operation; a synchronous closure literal works too.
    ///
    /// The type is `nonisolated(nonsending)` (SE-0461): a body runs on the executor of the code that calls
    /// it. The initiator calls `.high` bodies from the main actor and the other phases' bodies from tasks
    /// off it, so a plain closure runs on the main actor in `.high` and on the global concurrent executor
    /// elsewhere; a `@MainActor` closure always runs on the main actor. As anywhere in Swift, a body that
    /// awaits a `@concurrent` async function (which includes, without the `NonisolatedNonsendingByDefault`
    /// feature, any nonisolated `async` function or method) runs that callee on the global executor and then
    /// resumes on its own executor (the main actor in `.high`): only the body's own code is on the main actor.
    ///
    /// Two things still make a `.high` body start off the main actor: a value already typed as a plain
    /// `@Sendable () async throws -> Void` (a `@concurrent` function, which keeps hopping when converted), and,
    /// in Swift 6.3.1, a closure literal with a capture list (`{ [weak model] in … }`), which the compiler
    /// treats as `@concurrent` (compare swiftlang/swift#87097). Write such a closure `@MainActor` if it must
    /// run on the main actor.
    public typealias Operation = nonisolated(nonsending) @Sendable () async throws -> Void

    /// The most operations a concurrent phase runs at once (at least 1).
    public let maxConcurrentOperations: Int
    let operationSource: @Sendable () throws -> [StartupOperation]
    let state = Locked(InitiatorState())
    let clock = ContinuousClock()

    /// Creates an initiator whose concurrent phases run at most `maxConcurrentOperations` operations at once.
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
    public func add(_ operation: StartupOperation) throws {
        try state.withLock { state in
            guard state.lifecycle == .notStarted else {
                throw InitiatorError(
                    code: .addedAfterStart,
                    message: "cannot add startup operation \"\(operation.identifier)\": the initiator has already started")
            }
            state.added.append(operation)
        }
    }

    /// Adds an operation built from its parts; see `StartupOperation`.
    public func add(
        _ identifier: String,
        module: ModuleIdentifier? = nil,
        priority: Priority,
        dependencies: [String] = [],
        failurePolicy: FailurePolicy? = nil,
        timeout: Duration? = nil,
        operation: @escaping Operation
    ) throws {
        try add(StartupOperation(identifier, module: module, priority: priority, dependencies: dependencies,
                                 failurePolicy: failurePolicy, timeout: timeout, body: operation))
    }

    /// A snapshot of what has happened so far; operations not yet run are shown as pending.
    public var report: StartupReport {
        state.withLock { $0.makeReport() }
    }

    /// The validated plan once `start()` has planned it (for rendering with `dotGraph()`/`mermaidGraph()`).
    public var plan: StartupPlan? {
        state.withLock { $0.plan }
    }

    /// A stream of progress events from now on; it ends after `.finished`. Each access makes a new stream.
    public var events: AsyncStream<InitiatorEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: InitiatorEvent.self, bufferingPolicy: .unbounded)
        let id: Int? = state.withLock { state in
            guard state.lifecycle != .finished else { return nil }
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
