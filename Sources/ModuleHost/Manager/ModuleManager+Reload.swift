/// Reloading a module whole: its instance and what its startup operations set up.
extension ModuleManager {
    /// Reloads the module `identifier`: releases it and every loaded module that requires it
    /// (``releaseModule(_:)``), loads it afresh, then runs the startup operations of every module released again,
    /// in dependency and priority order (every phase, as ``Initiator/drain()`` runs them), so a module that loads its
    /// state in a startup operation has it again. Dependencies on operations of modules not released are taken as
    /// met: those ran at startup and their modules were not touched.
    ///
    /// Returns the identifiers released, in order, and the report of the operations run again; a failed operation is
    /// in the report (``StartupReport/isSuccessful`` is then `false`), not thrown. Throws what ``releaseModule(_:)``
    /// throws, or the ``ResolutionError`` of loading the module afresh (its operations then do not run).
    ///
    /// - Parameter identifier: The module to reload.
    /// - Returns: The identifiers released, and the report of the operations run again.
    /// - Throws: ``ResolutionError``, as said above.
    @discardableResult
    public func reloadModule(_ identifier: ModuleIdentifier) async throws(ResolutionError)
        -> (released: [ModuleIdentifier], startup: StartupReport) {
        let released = try releaseModule(identifier)
        _ = try bridge.resolve(identifier)
        let rerun = Set(released + [identifier])
        let operations = startupOperations().filter { $0.module.map(rerun.contains) ?? false }
        let identifiers = Set(operations.map(\.identifier))
        let initiator = Initiator(maxConcurrentOperations: self.initiator.maxConcurrentOperations) {
            operations.map { operation in
                var own = operation
                own.dependencies = operation.dependencies.filter(identifiers.contains)
                return own
            }
        }
        return (released, await initiator.drain())
    }
}
