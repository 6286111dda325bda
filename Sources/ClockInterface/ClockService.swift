#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost

/// Tells when the app started and how long it has run; provided by the ClockModule.
public protocol ClockService: Sendable {
    /// When the app started.
    var startedAt: Date { get }
    /// How long the app has been running.
    func uptime() -> Duration
}

extension ModuleIdentifier {
    /// The identifier of the module that provides ``ClockService`` (the demo's ClockModule).
    public static let clock: ModuleIdentifier = "com.modulehost.clock"
}
