import Foundation
import ModuleHost

/// Tells when the app started and how long it has run; provided by the ClockModule.
public protocol ClockService: Sendable {
    /// When the providing module was loaded.
    var startedAt: Date { get }
    /// How long ago the providing module was loaded.
    func uptime() -> Duration
}

extension ModuleIdentifier {
    /// The identifier of the module that provides ``ClockService`` (the demo's ClockModule).
    public static let clock: ModuleIdentifier = "com.modulehost.clock"
}
