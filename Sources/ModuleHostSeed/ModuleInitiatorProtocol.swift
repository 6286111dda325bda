@_spi(ModuleHostDeclarations) import ModuleHost

/// A module's startup operation, declared statically as in SwiftyArchitecture's Initiator.
///
/// ```swift
/// extension AuthModule: ModuleInitiatorProtocol {
///     static var identifier: String { "auth.restore" }
///     static var priority: Initiator.Priority { .high }
///     static var dependencies: [String] { [] }
///     static var operation: Initiator.Operation { { /* work */ } }
/// }
/// ```
///
/// The host adds the operation ahead of the module's own `contributions`, so a module that also contributes
/// operations cannot leave it out. ModuleHost's own form is a `ModuleStartupOperation` contributed in
/// `contributions`, which is also handed the module's context.
///
/// The operation runs where the initiator calls it: at `.high` it starts on the main actor even as a plain
/// closure; in the other phases a plain closure runs off the main actor (see `StartupOperationBody`).
public protocol ModuleInitiatorProtocol {
    /// The operation's identifier, unique among all startup operations; other operations depend on it by this name.
    static var identifier: String { get }
    /// The work to do; at `.high` it starts on the main actor.
    static var operation: Initiator.Operation { get }
    /// The phase the operation runs in.
    static var priority: Initiator.Priority { get }
    /// Identifiers of operations that must succeed before this one starts.
    static var dependencies: [String] { get }
    /// Whether a failure stops startup; `nil` means the phase's default. Not in the seed: ModuleHost's addition.
    static var failurePolicy: ModuleStartupOperation.FailurePolicy? { get }
    /// How long the operation may run; `nil` means no limit. Not in the seed: ModuleHost's addition.
    static var timeout: Duration? { get }
}

extension ModuleInitiatorProtocol {
    /// No dependencies by default.
    public static var dependencies: [String] { [] }
    /// The phase's default policy.
    public static var failurePolicy: ModuleStartupOperation.FailurePolicy? { nil }
    /// No time limit by default.
    public static var timeout: Duration? { nil }
}

extension ModuleInitiatorProtocol where Self: ModuleHost.ModuleProtocol {
    /// The seed's operation, read by the host through ModuleHost's declarations interface; not for module authors.
    /// The body and its wrapper are nonisolated(nonsending), so the body runs on the executor the initiator calls it
    /// from (the main actor in `.high`), with no hop in between.
    public static var _initiatorOperation: ModuleStartupOperation? {
        let body: StartupOperationBody = operation
        return ModuleStartupOperation(identifier, priority: priority, dependencies: dependencies,
                                      failurePolicy: failurePolicy, timeout: timeout, body: { _ in try await body() })
    }
}
