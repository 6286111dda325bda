/// Running a host in one call: the five steps of a host's life in the order they must come.
extension ModuleManager {
    /// Runs the host in one call, as `ServiceGroup.run()` runs services.
    ///
    /// 1. Loads the eager modules (``loadEagerModules()``); the first that fails is thrown.
    /// 2. Runs the blocking startup phases (``Initiator/start()``); a failure is thrown.
    /// 3. Signals the host ready and idle, so the later phases run while the host works (unless
    ///    `startsLaterPhases` is `false`: then `body` signals them, or they never run and are cancelled in step 5).
    /// 4. Runs `body`, the host's work (serving requests, a command loop), with the blocking phases' report,
    ///    until it returns or throws; cancel the calling task (or make `body` return) to stop.
    /// 5. Whatever happened: cancels what is left of startup, waits for it to settle, and unloads every loaded
    ///    module in reverse load order, awaiting each teardown for at most `teardownTimeLimit`
    ///    (``unloadAll(teardownTimeLimit:)``); `onTeardown` gets the records.
    ///
    /// - Parameters:
    ///   - teardownTimeLimit: How long to wait for each module's teardown in step 5.
    ///   - startsLaterPhases: Whether step 3 releases the later phases; `false` for a host that does one thing and
    ///     ends (a one-shot command), which has no use for idle work.
    ///   - onTeardown: Given the teardown records, one per module, in the order they were torn down.
    ///   - body: The host's work, given the report of the blocking phases.
    /// - Returns: What `body` returned.
    /// - Throws: The startup failure (``ResolutionError`` or ``InitiatorError``, whose code
    ///   `InitiatorError.Code.invalidPlan` is an invalid plan) or `body`'s error, in each case after step 5.
    ///
    /// ```swift
    /// let manager = ModuleManager()
    /// try manager.registerModules(withConfigFilePath: URL(fileURLWithPath: "modules.json"))
    /// try await manager.run { report in
    ///     print(report.renderTable(width: 80))
    ///     try await server.serve()   // until the task is cancelled
    /// }
    /// ```
    @discardableResult
    public func run<Result: Sendable>(
        teardownTimeLimit: Duration = .seconds(5),
        startsLaterPhases: Bool = true,
        onTeardown: ([TeardownRecord]) -> Void = { _ in },
        _ body: (StartupReport) async throws -> Result
    ) async throws -> Result {
        if let failure = loadEagerModules().first {
            // Nothing has started: there is no startup to wait for.
            onTeardown(await unloadAll(teardownTimeLimit: teardownTimeLimit))
            throw failure
        }
        let outcome: Swift.Result<Result, any Error>
        do {
            let report = try await initiator.start()
            if startsLaterPhases { initiator.hostDidBecomeIdle() }
            outcome = .success(try await body(report))
        } catch {
            outcome = .failure(error)
        }
        initiator.cancel()
        _ = await initiator.waitUntilFinished()
        onTeardown(await unloadAll(teardownTimeLimit: teardownTimeLimit))
        return try outcome.get()
    }
}
