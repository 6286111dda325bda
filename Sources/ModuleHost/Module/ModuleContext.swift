#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a module reaches the host through: other modules and services (through the ``bridge``), its own
/// configuration, and the user session.
///
/// A module instance gets a context of its own in ``ModuleProtocol/init(context:)`` and
/// ``ModuleProtocol/moduleDidLoad(with:)``. It works as the ``ModuleManager`` that loaded the module, for as long as
/// the instance is the loaded one. Once the instance is released (``ModuleManager/releaseModule(_:)``, a reload, or
/// ``ModuleManager/unloadAll(teardownTimeLimit:)``) and its unload hooks have returned, the context refuses: every
/// resolve through its ``bridge``, ``configuration(for:)``, the session calls and ``releaseModule(_:)`` throw
/// `ResolutionError.Code.moduleReleased`, and ``session`` is `nil`. Startup operations (the `body` of a
/// ``ModuleStartupOperation``) and commands (``ModuleCommand/Context/manager``) are given the manager itself. The
/// module contract names this protocol rather than the manager, so the module model sits below the manager.
///
/// ```swift
/// public init(context: any ModuleContext) throws {
///     auth = try context.bridge.resolve(AuthService.self)
///     settings = try context.configuration(for: Self.self)
/// }
/// ```
public protocol ModuleContext: AnyObject, Sendable {
    /// Resolves modules and services.
    var bridge: ModuleBridge { get }

    /// The configuration decoded for `type` from its manifest entry (or given at registration).
    func configuration<Module: ConfigurableModule>(for type: Module.Type) throws(ResolutionError) -> Module.Configuration

    /// The active user session, if a user is signed in.
    var session: UserSession? { get }

    /// Begins a user session for `userID` and tells every loaded ``SessionModuleProtocol`` module; a session
    /// already active for another user is ended first.
    ///
    /// - Parameters:
    ///   - userID: The user who signed in.
    ///   - startedAt: When the session began (for a restored session, when the user signed in).
    /// - Returns: The active session.
    /// - Throws: `ResolutionError.Code.moduleReleased` when this is a released instance's context; the manager
    ///   itself never throws.
    @discardableResult
    func beginUserSession(with userID: String, startedAt: Date) throws(ResolutionError) -> UserSession

    /// Ends the session of `userID`, if it is the active one, and tells every loaded session module.
    ///
    /// - Parameter userID: The user whose session ends.
    /// - Returns: The session that ended, or `nil` when `userID` had none.
    /// - Throws: `ResolutionError.Code.moduleReleased` when this is a released instance's context; the manager
    ///   itself never throws.
    @discardableResult
    func endUserSession(with userID: String) throws(ResolutionError) -> UserSession?

    /// Releases a module and every loaded module that requires it (the seed's `markAsReleasing()`); see
    /// ``ModuleManager/releaseModule(_:)``.
    @discardableResult
    func releaseModule(_ identifier: ModuleIdentifier) throws(ResolutionError) -> [ModuleIdentifier]
}

extension ModuleContext {
    /// Begins a user session for `userID` starting now; see ``beginUserSession(with:startedAt:)``.
    ///
    /// - Parameter userID: The user who signed in.
    /// - Returns: The active session.
    /// - Throws: `ResolutionError.Code.moduleReleased` when this is a released instance's context.
    @discardableResult
    public func beginUserSession(with userID: String) throws(ResolutionError) -> UserSession {
        try beginUserSession(with: userID, startedAt: Date())
    }
}
