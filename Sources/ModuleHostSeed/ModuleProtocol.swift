@_exported import ModuleHost
@_spi(Seed) import ModuleHost

/// A module written in SwiftyArchitecture's form: `required init()`, then `moduleDidLoad(with:)` handed the
/// ``ModuleManager`` itself.
///
/// This protocol shadows ModuleHost's `ModuleProtocol` in a file that imports `ModuleHostSeed`, so a module ported
/// from the seed compiles with its import line changed and nothing else:
///
/// ```swift
/// import ModuleHostSeed
///
/// final class AuthModule: ModuleProtocol, AuthServiceProtocol {
///     static var moduleIdentifier: ModuleIdentifier { return .auth }
///     required init() { }
///     func moduleDidLoad(with manager: ModuleManager) {}
/// }
/// ```
///
/// The manager creates the module with `init()` and then calls `moduleDidLoad(with:)`; a thrown error marks the
/// module as failed and is reported. Everything else is ModuleHost's `ModuleProtocol`: static services and
/// requirements, contributions, teardown. A module in ModuleHost's own form (`init(context:)`) adopts
/// `ModuleHost.ModuleProtocol` instead; in a file that imports `ModuleHostSeed`, write the module's name in full.
public protocol ModuleProtocol: ModuleHost.ModuleProtocol {
    /// The module's identifier, as the seed spells it (a `String`; see ``ModuleIdentifier``).
    static var moduleIdentifier: ModuleIdentifier { get }

    /// Creates the module; keep it cheap and do the set-up in `moduleDidLoad(with manager:)`.
    init()

    /// Called once, right after `init()`, with the manager that loaded the module; it may resolve other modules
    /// and read its configuration.
    ///
    /// - Parameter manager: The manager that loaded the module.
    /// - Throws: Any error; the module is then reported as failed to load.
    func moduleDidLoad(with manager: ModuleManager) throws
}

extension ModuleProtocol {
    /// The identifier ModuleHost's manager keys the module by: the seed's, as ModuleHost's typed identifier.
    public static var moduleIdentifier: ModuleHost.ModuleIdentifier {
        ModuleHost.ModuleIdentifier(rawValue: Self.moduleIdentifier as ModuleIdentifier)
    }

    /// Creates the module with the seed's `init()`; ModuleHost's manager calls this.
    ///
    /// - Parameter context: The manager that loads the module.
    ///
    /// - Throws: Nothing; the seed's `init()` cannot throw.
    public init(context: any ModuleContext) throws {
        self.init()
    }

    /// Calls the seed's `moduleDidLoad(with manager:)` with the manager; ModuleHost's manager calls this.
    ///
    /// - Parameter context: The manager that loaded the module.
    /// - Throws: What the seed's form throws, or a `ResolutionError` when no `ModuleManager` is behind the context.
    public func moduleDidLoad(with context: any ModuleContext) throws {
        guard let manager = context.manager else {
            throw ResolutionError(.loadFailed, "\(Self.moduleIdentifier) is a ModuleHostSeed module and needs the "
                                  + "ModuleManager itself, but was loaded with a context of type \(type(of: context))")
        }
        ModuleManagers.record(self, loadedBy: manager)
        try moduleDidLoad(with: manager)
    }

    /// The manager that loaded this module, the seed's `moduleManager`: a module calls another through it, as the
    /// seed's README shows (`try? self.moduleManager?.bridge.resolve(.auth) as? AuthServiceProtocol`). It is
    /// set before `moduleDidLoad(with:)` runs, and `nil` for an instance no manager loaded.
    public var moduleManager: ModuleManager? { ModuleManagers.manager(of: self) }

    /// Does nothing by default.
    ///
    /// - Parameter manager: The manager that loaded the module.
    ///
    /// - Throws: Nothing; a module's own hook may throw.
    public func moduleDidLoad(with manager: ModuleManager) throws {}
}
