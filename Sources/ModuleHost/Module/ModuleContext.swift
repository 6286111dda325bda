#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a module reaches the host through: other modules and services (through the ``bridge``), its own
/// configuration, and the user session.
///
/// A module gets one in ``ModuleProtocol/moduleDidLoad(with:)``, in its startup operations
/// (the `body` of its ``ModuleStartupOperation``) and in its commands (``ModuleCommand/Context/manager``). The context is
/// always the ``ModuleManager`` that loaded the module; the module contract names this protocol rather than
/// the manager, so the module model sits below the manager and nothing in it depends on how the host is built.
///
/// ```swift
/// func moduleDidLoad(with manager: any ModuleContext) throws {
///     let auth = try manager.bridge.resolve(AuthService.self)
///     let config = try manager.configuration(for: Self.self)
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
    /// already active for another user is ended first. Returns the new session.
    @discardableResult
    func beginUserSession(with userID: String, startedAt: Date) -> UserSession

    /// Ends the session of `userID`, if it is the active one, and tells every loaded session module; returns it.
    @discardableResult
    func endUserSession(with userID: String) -> UserSession?

    /// Releases a module and every loaded module that requires it (the seed's `markAsReleasing()`); see
    /// ``ModuleManager/releaseModule(_:)``.
    @discardableResult
    func releaseModule(_ identifier: ModuleIdentifier) throws(ResolutionError) -> [ModuleIdentifier]
}

extension ModuleContext {
    /// Begins a user session for `userID` starting now; see ``beginUserSession(with:startedAt:)``.
    @discardableResult
    public func beginUserSession(with userID: String) -> UserSession {
        beginUserSession(with: userID, startedAt: Date())
    }
}
