/// The asynchronous unload path: each module's synchronous hook, then its awaited teardown under a time limit.
extension ModuleManager {
    /// Unloads every loaded module in reverse load order, as ``unloadAll()`` does, and for each calls
    /// ``ModuleProtocol/moduleWillUnload()`` then awaits ``ModuleProtocol/moduleTearDown()`` for at most
    /// `teardownTimeLimit`. A teardown still running at its limit is cancelled, recorded as
    /// ``ModuleManager/TeardownRecord/Outcome/timedOut`` (naming the module) and no longer waited for: the next module is
    /// torn down, so this never waits longer than the limit per module. Cancelling the calling task does not cut
    /// a teardown short. Returns one record per module, in the order they were torn down.
    @discardableResult
    public func unloadAll(teardownTimeLimit: Duration) async -> [TeardownRecord] {
        var records: [TeardownRecord] = []
        for (identifier, module) in registry.detachAll() {
            module.moduleWillUnload()
            records.append(await TimedTeardown.run(module, identifier: identifier, timeLimit: teardownTimeLimit))
        }
        return records
    }
}
