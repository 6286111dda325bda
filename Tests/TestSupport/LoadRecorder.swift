import Foundation

/// Records events from test modules. Each test injects its own, so parallel tests share nothing.
public final class LoadRecorder: @unchecked Sendable {
    // `@unchecked`: `recorded` is only read and written with `lock` held.
    private let lock = NSLock()
    private var recorded: [String] = []

    /// Creates an empty recorder.
    public init() {}

    /// Appends `event`.
    public func record(_ event: String) {
        lock.withLock { recorded.append(event) }
    }

    /// Every event, in the order recorded.
    public var events: [String] { lock.withLock { recorded } }

    /// How many times `event` was recorded.
    public func count(of event: String) -> Int {
        events.filter { $0 == event }.count
    }
}
