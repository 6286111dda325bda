/// The asynchronous unload path: each module's synchronous hook, then its awaited teardown under a time limit.
extension ModuleManager {
    /// Unloads every loaded module in reverse load order, and for each calls
    /// ``ModuleProtocol/moduleWillUnload()`` then awaits ``ModuleProtocol/moduleTearDown()`` for at most
    /// `teardownTimeLimit`. A teardown still running at its limit is cancelled, recorded as
    /// ``ModuleManager/TeardownRecord/Outcome/timedOut`` (naming the module) and no longer waited for: the next module is
    /// torn down, so this never waits longer than the limit per module. Cancelling the calling task does not cut
    /// a teardown short. A later resolve loads a module afresh. ``run(teardownTimeLimit:laterPhases:onTeardown:_:)`` calls
    /// this as its last step; a host that does not use `run` calls it when it stops.
    ///
    /// - Parameter teardownTimeLimit: How long to wait for each module's teardown.
    /// - Returns: One record per module, in the order they were torn down.
    @discardableResult
    public func unloadAll(teardownTimeLimit: Duration = .seconds(5)) async -> [TeardownRecord] {
        var records: [TeardownRecord] = []
        for unloaded in registry.detachAll() {
            unloaded.module.moduleWillUnload()
            records.append(await TimedTeardown.run(unloaded.module, identifier: unloaded.identifier, timeLimit: teardownTimeLimit))
            unloaded.retireContext()
        }
        return records
    }
}
