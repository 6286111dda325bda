/// One startup operation declared by a module; its body receives the manager that runs it.
///
/// A module contributes it to ``point`` in its ``ModuleProtocol/contributions``; the plan is validated and
/// drawn (`app-shell graph`) without instantiating anything:
/// ```swift
/// public static let contributions: [Contribution] = [
///     .startupOperation(ModuleStartupOperation("numbers.warm-primes", priority: .asyncHigh) { manager in
///         try manager.bridge.resolve(NumberFactService.self).warmUp()
///     }),
/// ]
/// ```
public struct ModuleStartupOperation: Sendable {
    /// The operation's identifier, unique among all startup operations.
    package var identifier: String
    /// The phase the operation runs in (the manifest can override it).
    package var priority: Priority
    /// Identifiers of operations that must succeed before this one starts.
    package var dependencies: [String]
    /// Identifiers of operations that, when some module in the manifest declares them, must succeed first;
    /// when no module declares one, it is ignored (for modules that work with or without another).
    package var optionalDependencies: [String]
    /// Whether a failure stops startup; `nil` means the phase's default (the manifest can override it).
    package var failurePolicy: FailurePolicy?
    /// How long the operation may run; `nil` means no limit (the manifest can override it).
    package var timeout: Duration?
    /// The work to do, given the manager whose initiator runs it.
    ///
    /// Like ``StartupOperationBody`` it is `nonisolated(nonsending)`: it runs where the initiator calls it, so
    /// in the `.high` phase it starts on the main actor (a plain closure included) and in the other phases a
    /// plain closure runs off the main actor.
    package var body: nonisolated(nonsending) @Sendable (any ModuleContext) async throws -> Void

    /// Declares an operation.
    ///
    /// - Parameters:
    ///   - identifier: The operation's name, unique in the startup graph.
    ///   - priority: The phase it runs in.
    ///   - dependencies: Operations that must succeed before it runs.
    ///   - optionalDependencies: Operations that must succeed first when some module declares them; ignored otherwise.
    ///   - failurePolicy: Whether its failure stops startup; by its phase when `nil`.
    ///   - timeout: How long it may run; none when `nil`.
    ///   - body: The work, given the manager whose initiator runs it.
    public init(
        _ identifier: String, priority: Priority, dependencies: [String] = [],
        optionalDependencies: [String] = [], failurePolicy: FailurePolicy? = nil, timeout: Duration? = nil,
        body: nonisolated(nonsending) @escaping @Sendable (any ModuleContext) async throws -> Void
    ) {
        self.identifier = identifier
        self.priority = priority
        self.dependencies = dependencies
        self.optionalDependencies = optionalDependencies
        self.failurePolicy = failurePolicy
        self.timeout = timeout
        self.body = body
    }
}
