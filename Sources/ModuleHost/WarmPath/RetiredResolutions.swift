/// What a change to the ``ResolutionCache`` took out of use: the snapshot it replaced and the modules and service
/// boxes it removed.
///
/// They are let go of by ``dispose()``, which the caller runs once it holds no lock: letting go of a service box may
/// free a service whose `deinit` calls back into the manager, and the replaced snapshot may be freed only after every
/// read that may still use it has ended. `dispose()` returns after that grace period, so a release or an injection
/// that calls it returns only once no resolve can still see what it replaced.
struct RetiredResolutions {
    /// The snapshot replaced, if the change replaced one.
    var snapshot: Unmanaged<ResolutionSnapshot>?
    /// The modules and boxes removed; their last references may be these.
    var values: [AnyObject] = []

    /// Waits until no read can still use the replaced snapshot, then frees it; the removed values go when this
    /// value does. Call it with no lock held.
    func dispose() {
        guard let snapshot else { return }
        SnapshotReaders.waitForGracePeriod()
        snapshot.release()
    }
}
