import ClockInterface
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost

/// Provides ``ClockInterface/ClockService``, and the `uptime` command to hosts that take module commands.
///
/// The smallest possible module, and the worked example of "adding a module" in the README: an interface
/// target, an implementation target, the app-shell's dependency on it, and a line in `modules.json`. The
/// shell never imports it.
public final class ClockModule: ModuleProtocol, ClockService {
    /// `com.modulehost.clock`.
    public static let moduleIdentifier: ModuleIdentifier = .clock
    /// Provides ``ClockInterface/ClockService``: the module itself, in the form the compiler checks.
    public static let providedServices: [ProvidedService] = [.service(ClockService.self, from: ClockModule.self) { $0 }]

    /// The command `uptime`: how long the app has been running.
    public static let contributions: [Contribution] = [
        .command(ModuleCommand("uptime", summary: "how long the app has been running") { context in
            guard context.arguments.isEmpty else { throw ModuleCommandError(.usage, "usage: uptime") }
            let clock = try context.manager.bridge.resolve(ClockService.self)
            let uptime = clock.uptime().components
            let seconds = Double(uptime.seconds) + Double(uptime.attoseconds) / 1e18
            return ModuleCommand.Output(
                text: "up \(tenths(seconds)) s, since \(clock.startedAt.formatted(.iso8601))",
                value: Uptime(seconds: seconds, startedAt: clock.startedAt))
        }),
    ]

    /// The `uptime` command's structured output.
    struct Uptime: Encodable, Sendable {
        let seconds: Double
        let startedAt: Date
    }

    /// When the app (this process) started.
    public let startedAt: Date
    private let origin: ContinuousClock.Instant

    /// Creates the module; the app's start is read from the system (on Linux), else the module's load stands in.
    ///
    /// - Parameter context: Unused: the clock needs nothing from the host.
    public init(context: any ModuleContext) {
        let age = ProcessAge.current() ?? .zero
        let seconds = Double(age.components.seconds) + Double(age.components.attoseconds) / 1e18
        startedAt = Date(timeIntervalSinceNow: -seconds)
        origin = ContinuousClock.now - age
    }

    /// How long the app has been running.
    public func uptime() -> Duration {
        ContinuousClock.now - origin
    }

    /// `seconds` with one decimal, like `3.2`.
    static func tenths(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
