/// What a change to the ``ResolutionCache`` took out of use: the modules and service boxes it removed.
///
/// They are let go of by ``dispose()``, which the caller runs once it holds no lock: letting go of a service box may
/// free a service whose `deinit` calls back into the manager. Every resolve reads the cache under its lock, so once
/// the change has returned no resolve can still see what it removed.
struct RetiredResolutions {
    /// The modules and boxes removed; their last references may be these.
    var values: [AnyObject] = []

    /// Lets go of the removed values. Call it with no lock held.
    consuming func dispose() {
        values.removeAll()
    }
}
