/// A unit of an app: a class the module manager finds by name, instantiates on first use, and unloads in order.
///
/// A module declares statically who it is, which modules it needs and which service protocols it provides,
/// so the manager can validate a manifest and answer "who provides what" without instantiating anything.
/// When it loads, a module is given a ``ModuleContext`` (the manager) to reach other modules through.
///
/// A module is a `final class`: the protocol is `Sendable`, and Swift lets only a final class conform to
/// `Sendable` (a non-final class fails with "non-final class … cannot conform to the 'Sendable' protocol").
///
/// ```swift
/// public final class AuthModule: ModuleProtocol, AuthService {
///     public static let moduleIdentifier: ModuleIdentifier = .auth
///     public static let providedServices: [ProvidedService] = [.service(AuthService.self, from: AuthModule.self) { $0 }]
///     public init(context: any ModuleContext) {}
/// }
/// ```
///
/// A module author implements at most eight requirements, each with one form: ``moduleIdentifier``,
/// ``requiredModules``, ``providedServices``, ``contributions``, ``init(context:)``, ``moduleDidLoad(with:)``,
/// ``moduleWillUnload()`` and ``moduleTearDown()``. Code written in SwiftyArchitecture's form (`required init()`,
/// `moduleDidLoad(with manager: ModuleManager)`) imports `ModuleHostSeed` instead (see <doc:SeedNames>).
public protocol ModuleProtocol: AnyObject, Sendable {
    /// The module's stable identifier, reverse-DNS by convention.
    static var moduleIdentifier: ModuleIdentifier { get }
    /// The modules this one needs; they are loaded before it and unloaded after it.
    static var requiredModules: [ModuleIdentifier] { get }
    /// The service protocols this module provides through the bridge.
    static var providedServices: [ProvidedService] { get }

    /// Creates the module with what it needs: the manager calls this, once, when the module is first used.
    ///
    /// This is the module's one initializer. Resolve the services your module requires here and keep them in `let`
    /// properties: no lock, no optional. A module that needs nothing writes `public init(context: any ModuleContext) {}`.
    /// A thrown error marks the module as failed, and resolving it (or its services) then throws that error.
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
    ///
    /// - Parameter context: What the module reaches the host through: the bridge, its configuration, the session.
    /// - Throws: Any error; the module is then reported as failed to load.
    init(context: any ModuleContext) throws

    /// Called once, right after ``init(context:)``, before anyone else can resolve the module: the module's one
    /// set-up hook, for work that needs the module itself (telling another service about it). Does nothing by
    /// default.
    ///
    /// - Parameter context: The same context the module was created with.
    /// - Throws: Any error; the module is then reported as failed to load.
    func moduleDidLoad(with context: any ModuleContext) throws

    /// Called once when the manager unloads its modules, in reverse load order.
    func moduleWillUnload()

    /// Asynchronous teardown (close a connection, flush a file), awaited when the manager unloads its modules
    /// with ``ModuleManager/unloadAll(teardownTimeLimit:)``: right after ``moduleWillUnload()``, in reverse load
    /// order, and for at most the time limit. A teardown still running then is cancelled, reported as
    /// ``ModuleManager/TeardownRecord/Outcome/timedOut`` and no longer waited for.
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
    /// The seed's startup operation, which ModuleHostSeed's `ModuleInitiatorProtocol` implements; the host adds it to the module's
    /// contributions, so a module that also writes ``contributions`` cannot leave it out.
    @_spi(ModuleHostDeclarations) static var _initiatorOperation: ModuleStartupOperation? { get }
    /// The ABI mark of the ModuleHost the type is compiled against, carried into the binary of the type's own
    /// code (a plugin's library); implemented by ModuleHost's build (its generated ABIIdentity.swift).
    @_spi(ModuleHostABI) static var _moduleHostABIMark: StaticString { get }
}

extension ModuleProtocol {
    /// No required modules by default.
    public static var requiredModules: [ModuleIdentifier] { [] }
    /// No services by default.
    public static var providedServices: [ProvidedService] { [] }
    /// Does nothing by default.
    ///
    /// - Parameter context: What the module sees of the manager.
    /// - Throws: Nothing; a module's own hook may throw.
    public func moduleDidLoad(with context: any ModuleContext) throws {}
    /// Does nothing by default.
    public func moduleWillUnload() {}
    /// Does nothing by default.
    public func moduleTearDown() async {}
    /// None by default.
    public static var contributions: [Contribution] { [] }
    /// None, unless the module adopts ModuleHostSeed's `ModuleInitiatorProtocol`.
    public static var _initiatorOperation: ModuleStartupOperation? { nil }
    /// None, unless the module adopts ``ConfigurableModule``.
    public static var _configurationType: (any (Decodable & Sendable).Type)? { nil }
    /// None, unless the module adopts ``SessionModuleProtocol``.
    public var _sessionObserver: (any SessionModuleProtocol)? { nil }
}
