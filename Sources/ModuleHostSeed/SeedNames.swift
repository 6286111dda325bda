import ModuleHost

/// A module's identifier as the seed spells it: a `String`. In a file that imports `ModuleHostSeed`, this name
/// shadows ModuleHost's typed `ModuleIdentifier`, so the seed's idioms compile as written:
///
/// ```swift
/// extension ModuleIdentifier {
///     static let auth: ModuleIdentifier = "com.klein.module.auth"
/// }
/// static var identifier: String { moduleIdentifier }          // an initiator operation named after its module
/// static var dependencies: [String] { [ModuleIdentifier.application] }
/// ```
///
/// The manager still keys modules by ModuleHost's typed identifier; the seed's `ModuleProtocol` turns the one into
/// the other. Write `ModuleHost.ModuleIdentifier` in such a file where ModuleHost's own type is meant.
public typealias ModuleIdentifier = String

extension ModuleBridge {
    /// The module registered under `identifier`, loading it on first use: the seed's `bridge.resolve(.auth)`, with
    /// the identifier as the seed spells it.
    ///
    /// - Parameter identifier: The module's identifier.
    /// - Returns: The module; cast it to the service protocol it adopts, as the seed does.
    /// - Throws: `ResolutionError` when no module is registered under `identifier` or it fails to load.
    public func resolve(_ identifier: ModuleIdentifier) throws(ResolutionError) -> any ModuleHost.ModuleProtocol {
        try resolve(ModuleHost.ModuleIdentifier(rawValue: identifier))
    }
}

extension ModuleManager {
    /// Releases the module registered under `identifier`, and first the modules that require it: the seed's
    /// `markAsReleasing()`, as ModuleHost's `releaseModule(_:)` with the identifier as the seed spells it.
    ///
    /// - Parameter identifier: The module's identifier.
    /// - Returns: The identifiers released, in order (empty when none of them was loaded).
    /// - Throws: `ResolutionError` when no module is registered under `identifier`, or when called from the loading
    ///   of a module it would release.
    @discardableResult
    public func releaseModule(_ identifier: ModuleIdentifier) throws(ResolutionError) -> [ModuleHost.ModuleIdentifier] {
        try releaseModule(ModuleHost.ModuleIdentifier(rawValue: identifier))
    }

    /// The app's shared manager, the seed's `ModuleManager.default`: register the manifest on it when the app
    /// starts, and reach it from anywhere. A test makes a manager of its own with `ModuleManager()` instead, so tests
    /// share nothing.
    ///
    /// ```swift
    /// try ModuleManager.default.registerModules(withConfigFilePath: url)
    /// ```
    public static let `default` = ModuleManager()
}

extension Initiator {
    /// The work of one startup operation: the seed's name for `StartupOperationBody`.
    public typealias Operation = StartupOperationBody
    /// When an operation runs (`high`, `asyncHigh`, `afterFirstFrame`, `low`, `idle`): the seed's name for
    /// `ModuleStartupOperation.Priority`.
    public typealias Priority = ModuleStartupOperation.Priority
}
