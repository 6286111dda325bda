import Foundation
import Testing

/// The slow lane (`Tests/AppShellSlowTests`: the suites that build a package or run terminal trials by the hundred)
/// runs on request: `MODULEHOST_SLOW_LANE=1 swift test`, as CI runs it. Each of its suites is enabled by
/// ``isRequested``, so a plain `swift test` reports them skipped, with ``reason``, and takes about a minute after its
/// build instead of about six.
package enum SlowLane {
    /// The variable that asks for the slow lane.
    package static let variable = "MODULEHOST_SLOW_LANE"

    /// Whether this run asked for the slow lane.
    package static var isRequested: Bool { ProcessInfo.processInfo.environment[variable] == "1" }

    /// Why a slow-lane suite was skipped.
    package static var reason: Comment { "the slow lane runs on request: \(variable)=1 swift test (CI runs it)" }
}
