/// The initiator's clock: `ContinuousClock` readings as the `Duration` elapsed since an instant of its own.
///
/// `ContinuousClock.Instant` is a resilient type, so a struct that stores one has its layout known only at run
/// time and is copied through value witnesses; the initiator's state, read under its lock for every operation,
/// keeps `Duration`s (a frozen type) instead.
struct StartupClock: Sendable {
    private let clock = ContinuousClock()
    private let reference = ContinuousClock.now

    /// The time elapsed since this clock was made.
    var now: Duration { reference.duration(to: clock.now) }
}
