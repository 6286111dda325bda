/// The initiator's clock: `ContinuousClock` readings as the `Duration` elapsed since an instant fixed once per
/// process.
///
/// `ContinuousClock.Instant` is a resilient type, so a struct that stores one has its layout known only at run
/// time and is copied through value witnesses; the initiator's state, read under its lock for every operation,
/// keeps `Duration`s (a frozen type) instead. Reading the clock needs no instance, so an operation's child task
/// notes when it ended without capturing the initiator.
enum StartupClock {
    private static let reference = ContinuousClock.now

    /// The time elapsed since the process's reference instant.
    static var now: Duration { reference.duration(to: .now) }
}
