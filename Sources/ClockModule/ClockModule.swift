import Foundation
import ModuleHost

/// Tells the time the app started and how long it has run.
///
/// The smallest possible module, and the worked example of "adding a module" in the README: a target, the
/// app-shell's dependency on it, and a line in `modules.json`. The shell never imports it.
public protocol ClockService: Sendable {
    /// When the module was loaded.
    var startedAt: Date { get }
    /// How long ago the module was loaded.
    func uptime() -> Duration
}

extension ModuleIdentifier {
    /// The ClockModule's identifier.
    public static let clock: ModuleIdentifier = "com.modulehost.clock"
}

/// Provides ``ClockService``, and the `uptime` command to hosts that take module commands.
public final class ClockModule: ModuleCommandsProviding, ClockService {
    /// `com.modulehost.clock`.
    public static let moduleIdentifier: ModuleIdentifier = .clock
    /// Provides ``ClockService``.
    public static let providedServices: [ProvidedService] = [.service(ClockService.self)]

    /// `uptime`: how long the app has been running.
    public static let commands: [ModuleCommand] = [
        ModuleCommand("uptime", summary: "how long the app has been running") { _, manager in
            let clock = try manager.bridge.resolve(ClockService.self)
            let uptime = clock.uptime().components
            let seconds = Double(uptime.seconds) + Double(uptime.attoseconds) / 1e18
            return "up \(String(format: "%.1f", seconds)) s, since \(clock.startedAt.formatted(.iso8601))"
        },
    ]

    /// When the module was loaded.
    public let startedAt = Date()
    private let origin = ContinuousClock.now

    /// Creates the module.
    public init() {}

    /// How long ago the module was loaded.
    public func uptime() -> Duration {
        ContinuousClock.now - origin
    }
}
