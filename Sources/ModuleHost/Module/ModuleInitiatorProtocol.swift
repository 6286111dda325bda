/// A module's startup operation, declared statically as in SwiftyArchitecture's Initiator.
///
/// Modules listed in the manifest that adopt it are picked up by ``ModuleManager/initiator``:
/// ```swift
/// extension AuthModule: ModuleInitiatorProtocol {
///     static var identifier: String { "auth.restore" }
///     static var priority: Initiator.Priority { .high }
///     static var dependencies: [String] { [] }
///     static var operation: Initiator.Operation { { /* work */ } }
/// }
/// ```
/// A module with several operations, or one that needs the manager, contributes ``ModuleStartupOperation``s in its
/// ``ModuleProtocol/contributions``.
///
/// The operation runs where the initiator calls it (see ``StartupOperationBody``): at `.high`, as above, it
/// starts on the main actor even as a plain closure; in the other phases a plain closure runs off the main actor.
public protocol ModuleInitiatorProtocol {
    /// The operation's identifier, unique among all startup operations; other operations depend on it by this name.
    static var identifier: String { get }
    /// The work to do; at `.high` it starts on the main actor (see ``StartupOperationBody``).
    static var operation: StartupOperationBody { get }
    /// The phase the operation runs in.
    static var priority: ModuleStartupOperation.Priority { get }
    /// Identifiers of operations that must succeed before this one starts.
    static var dependencies: [String] { get }
    /// Whether a failure stops startup; `nil` means the phase's default.
    static var failurePolicy: ModuleStartupOperation.FailurePolicy? { get }
    /// How long the operation may run; `nil` means no limit.
    static var timeout: Duration? { get }
}

extension ModuleInitiatorProtocol {
    /// No dependencies by default.
    public static var dependencies: [String] { [] }
    /// The phase's default policy.
    public static var failurePolicy: ModuleStartupOperation.FailurePolicy? { nil }
    /// No timeout by default.
    public static var timeout: Duration? { nil }
}
