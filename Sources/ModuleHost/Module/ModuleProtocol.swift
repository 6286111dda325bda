/// A unit of an app: a class the module manager finds by name, instantiates on first use, and unloads in order.
///
/// A module declares statically who it is, which modules it needs and which service protocols it provides,
/// so the manager can validate a manifest and answer "who provides what" without instantiating anything.
/// When it loads, a module is given a ``ModuleContext`` (the manager) to reach other modules through.
///
/// ```swift
/// public final class AuthModule: ModuleProtocol, AuthService {
///     public static let moduleIdentifier: ModuleIdentifier = .auth
///     public static let providedServices: [ProvidedService] = [.service(AuthService.self)]
///     public init() {}
/// }
/// ```
public protocol ModuleProtocol: AnyObject, Sendable {
    /// The module's stable identifier, reverse-DNS by convention.
    static var moduleIdentifier: ModuleIdentifier { get }
    /// The modules this one needs; they are loaded before it and unloaded after it.
    static var requiredModules: [ModuleIdentifier] { get }
    /// The service protocols this module provides through the bridge.
    static var providedServices: [ProvidedService] { get }

    /// Creates the module with what it needs: the manager calls this, once, when the module is first used.
    ///
    /// Resolve the services your module requires here and keep them in `let` properties: no lock, no optional.
    /// A thrown error marks the module as failed, as one from ``moduleDidLoad(with:)-2t9q2`` does. The default calls
    /// ``init()``, so a module written in the seed's form (`init()`, then ``moduleDidLoad(with:)-2t9q2``) needs nothing.
    ///
    /// ```swift
    /// public final class NotesModule: ModuleProtocol {
    ///     public static let moduleIdentifier: ModuleIdentifier = "com.example.notes"
    ///     public static let requiredModules: [ModuleIdentifier] = [.storage]
    ///     private let storage: any StorageService
    ///
    ///     public init(context: any ModuleContext) throws {
    ///         storage = try context.bridge.resolve(StorageService.self)
    ///     }
    /// }
    /// ```
    init(context: any ModuleContext) throws

    /// The same, handed the ``ModuleManager`` itself: the manager calls this one, and its default calls the form
    /// that takes `any ModuleContext`, so a module that writes `init(context: ModuleManager)` is created with it
    /// rather than silently passed by. Implement one of the two.
    init(context manager: ModuleManager) throws

    /// Creates the module without a context (the seed's form); keep it cheap and let ``moduleDidLoad(with:)-2t9q2`` do
    /// the work. A module that implements ``init(context:)-5glnr`` need not implement this: the default throws a
    /// ``ResolutionError`` saying the module is created with a context.
    init() throws

    /// Called once, right after the module is instantiated; it may resolve other modules and read its config.
    ///
    /// A thrown error marks the module as failed: resolving it (or its services) then throws that error.
    func moduleDidLoad(with manager: any ModuleContext) throws

    /// The seed's form of ``moduleDidLoad(with:)-2t9q2``, handed the manager itself, so a module ported from the
    /// seed runs its set-up unchanged. The manager calls this one; its default calls the form that takes
    /// `any ModuleContext`. Implement one of the two; a thrown error marks the module as failed.
    ///
    /// Two limits of Swift's dispatch: a subclass that adds this form is not called when its base class
    /// implements only the other (override the form the base implements); and a call you make yourself with an
    /// `any ModuleContext` argument reaches the other form only (call with the `ModuleManager` to reach either).
    func moduleDidLoad(with manager: ModuleManager) throws

    /// Called once when the manager unloads its modules, in reverse load order.
    func moduleWillUnload()

    /// Asynchronous teardown (close a connection, flush a file), awaited when the manager unloads its modules
    /// with ``ModuleManager/unloadAll(teardownTimeLimit:)``: right after ``moduleWillUnload()``, in reverse load
    /// order, and for at most the time limit. A teardown still running then is cancelled, reported as
    /// ``ModuleManager/TeardownRecord/Outcome/timedOut`` and no longer waited for. The synchronous
    /// ``ModuleManager/unloadAll()`` does not call it.
    func moduleTearDown() async

    /// What the module adds to the host's extension points, in one declaration: commands, routes, startup
    /// operations and the points the app declares (see ``ExtensionPoint``). The host reads it without
    /// instantiating the module. None by default.
    ///
    /// ```swift
    /// public static let contributions: [Contribution] = [
    ///     .command(ModuleCommand("uptime", summary: "how long the app has run") { _ in .text("up") }),
    /// ]
    /// ```
    static var contributions: [Contribution] { get }

    // The SPI requirements below carry, to the host, what the protocols a module adopts declare, so the host never
    // asks the runtime whether a module type conforms to one (the first time, that scans the conformance records of
    // every loaded image). They are not public API: the adopted protocol implements each; a module never does.
    // Those protocols keep their own requirements without defaults, so a near miss there fails to compile.

    /// The configuration type of ``ConfigurableModule``, which implements it.
    @_spi(ModuleHostDeclarations) static var _configurationType: (any (Decodable & Sendable).Type)? { get }
    /// The module as a ``SessionModuleProtocol``, which implements it.
    @_spi(ModuleHostDeclarations) var _sessionObserver: (any SessionModuleProtocol)? { get }
    /// The seed's startup operation, which ``ModuleInitiatorProtocol`` implements; the host adds it to the module's
    /// contributions, so a module that also writes ``contributions`` cannot leave it out.
    @_spi(ModuleHostDeclarations) static var _initiatorOperation: ModuleStartupOperation? { get }
    /// The ABI mark of the ModuleHost the type is compiled against, carried into the binary of the type's own
    /// code (a plugin's library); implemented by ModuleHost's build (its generated ABIIdentity.swift).
    @_spi(ModuleHostABI) static var _moduleHostABIMark: StaticString { get }
}

extension ModuleProtocol {
    /// Calls ``init()``: the seed's form, whose set-up is in ``moduleDidLoad(with:)-2t9q2``.
    public init(context: any ModuleContext) throws {
        try self.init()
    }

    /// Calls the form that takes `any ModuleContext`: either form a module implements is the one it is made with.
    public init(context manager: ModuleManager) throws {
        try self.init(context: manager as any ModuleContext)
    }

    /// Throws: a module that implements ``init(context:)-5glnr`` is created with a context, by the manager.
    public init() throws {
        throw ResolutionError(.loadFailed, "\(Self.moduleIdentifier) is created with init(context:), which the manager calls; "
                                + "it has no init() of its own")
    }

    /// No required modules by default.
    public static var requiredModules: [ModuleIdentifier] { [] }
    /// No services by default.
    public static var providedServices: [ProvidedService] { [] }
    /// Does nothing by default.
    public func moduleDidLoad(with manager: any ModuleContext) throws {}
    /// Calls ``moduleDidLoad(with:)-2t9q2``, so a module that implements that form gets the call, however it is
    /// made (a test calling `moduleDidLoad(with: manager)` with a `ModuleManager` reaches this overload).
    public func moduleDidLoad(with manager: ModuleManager) throws {
        try moduleDidLoad(with: manager as any ModuleContext)
    }
    /// Does nothing by default.
    public func moduleWillUnload() {}
    /// Does nothing by default.
    public func moduleTearDown() async {}
    /// None by default.
    public static var contributions: [Contribution] { [] }
    /// None, unless the module adopts ``ModuleInitiatorProtocol``.
    public static var _initiatorOperation: ModuleStartupOperation? { nil }
    /// None, unless the module adopts ``ConfigurableModule``.
    public static var _configurationType: (any (Decodable & Sendable).Type)? { nil }
    /// None, unless the module adopts ``SessionModuleProtocol``.
    public var _sessionObserver: (any SessionModuleProtocol)? { nil }
}
