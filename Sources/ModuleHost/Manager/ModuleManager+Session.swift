#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The user session (SwiftyArchitecture's `beginUserSession(with:)`, `endUserSession(with:)` and `session`):
/// the module that authenticates users begins and ends it, and every loaded ``SessionModuleProtocol`` module
/// is told, so modules learn who is signed in without importing the one that signs them in.
extension ModuleManager {
    /// The active user session, if any.
    public var session: UserSession? {
        registry.sessions.current
    }

    /// Begins a session for `userID` and tells every loaded ``SessionModuleProtocol`` module, with no lock held,
    /// before returning (unless another thread is already telling a module, which then tells it). A session of
    /// another user ends first, and its modules are told that too; when `userID` already has the session, nothing
    /// changes. Modules that load later are told when they load.
    ///
    /// - Parameters:
    ///   - userID: The user who signed in.
    ///   - startedAt: When the session began; now by default.
    /// - Returns: The active session.
    @discardableResult
    public func beginUserSession(with userID: String, startedAt: Date = Date()) -> UserSession {
        registry.sessions.begin(UserSession(userID: userID, startedAt: startedAt))
    }

    /// Ends the active session if it belongs to `userID`, and tells every loaded ``SessionModuleProtocol``
    /// module.
    ///
    /// - Parameter userID: The user whose session ends.
    /// - Returns: The session that ended, or `nil` when `userID` had none.
    @discardableResult
    public func endUserSession(with userID: String) -> UserSession? {
        registry.sessions.end(userID: userID)
    }
}
