#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The signed-in user of the app, as the host knows it: who, and since when.
///
/// Begun and ended by the module that authenticates users (``ModuleContext/beginUserSession(with:startedAt:)``,
/// ``ModuleContext/endUserSession(with:)``) and delivered to every loaded ``SessionModuleProtocol`` module.
/// It carries no secret: a module that needs a token keeps it behind its own service.
public struct UserSession: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The user's stable identifier, such as a user name.
    public let userID: String
    /// When the session began.
    public let startedAt: Date

    /// Creates a session value for `userID`, begun at `startedAt`.
    package init(userID: String, startedAt: Date = Date()) {
        self.userID = userID
        self.startedAt = startedAt
    }

    /// The user's identifier.
    public var description: String { userID }
}
