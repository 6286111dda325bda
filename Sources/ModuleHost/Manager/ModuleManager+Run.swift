/// Running a host in one call: the five steps of a host's life in the order they must come.
extension ModuleManager {
    /// Runs the host in one call, as `ServiceGroup.run()` runs services.
    ///
    /// 1. Loads the eager modules (``loadEagerModules()``); the first that fails is thrown.
    /// 2. Runs the blocking startup phases (``Initiator/start()``); a failure is thrown.
    /// 3. Releases the later phases as `laterPhases` says: while `body` works, before it (waiting for them), or never.
    /// 4. Runs `body`, the host's work (serving requests, a command loop), with the startup report, until it returns
    ///    or throws. Cancel the calling task (or make `body` return) to stop: cancelling it also cancels what is
    ///    left of startup at once, in any step.
    /// 5. Whatever happened: gives the later phases their grace period if `body` returned, cancels what is left of
    ///    startup, and unloads every loaded module in reverse load order, awaiting each teardown for at most
    ///    `teardownTimeLimit` (``unloadAll(teardownTimeLimit:)``) even when the task is cancelled; `onTeardown`
    ///    gets the records.
    ///
    /// - Parameters:
    ///   - teardownTimeLimit: How long to wait for each module's teardown in step 5.
    ///   - laterPhases: When the later phases run, and how long they may outlast `body`.
    ///   - onTeardown: Given the teardown records, one per module, in the order they were torn down.
    ///   - body: The host's work, given the report of the phases run so far: the blocking ones, or every one
    ///     with ``LaterPhases/beforeWork``.
    /// - Returns: What `body` returned.
    /// - Throws: The startup failure (``ResolutionError`` or ``InitiatorError``, whose code
    ///   `invalidPlan` is an invalid plan) or `body`'s error, in each case after step 5.
    ///
    /// ```swift
    /// let manager = ModuleManager()
    /// try manager.registerModules(withConfigFilePath: URL(fileURLWithPath: "modules.json"))
    /// try await manager.run(laterPhases: .whileWorking(gracePeriod: .seconds(5))) { report in
    ///     print(report.renderTable(width: 80))
    ///     try await server.serve()   // until the task is cancelled
    /// }
    /// ```
    @discardableResult
    public func run<Result: Sendable>(
        teardownTimeLimit: Duration = .seconds(5),
        laterPhases: LaterPhases = .whileWorking(gracePeriod: .zero),
        onTeardown: ([TeardownRecord]) -> Void = { _ in },
        _ body: (StartupReport) async throws -> Result
    ) async throws -> Result {
        if let failure = loadEagerModules().first {
            // Nothing has started: there is no startup to wait for.
            onTeardown(await unloadAll(teardownTimeLimit: teardownTimeLimit))
            throw failure
        }
        let initiator = initiator
        let outcome: Swift.Result<Result, any Error>
        do {
            var report = try await initiator.start()
            if laterPhases == .beforeWork { report = await initiator.drain() }
            if case .whileWorking = laterPhases { initiator.hostDidBecomeIdle() }
            let result = try await withTaskCancellationHandler {
                try await body(report)
            } onCancel: {
                initiator.cancel()
            }
            if case .whileWorking(let gracePeriod) = laterPhases { await initiator.finish(within: gracePeriod) }
            outcome = .success(result)
        } catch {
            outcome = .failure(error)
        }
        initiator.cancel()
        await initiator.wait(for: .finished, abandonOnCancel: false)
        onTeardown(await unloadAll(teardownTimeLimit: teardownTimeLimit))
        return try outcome.get()
    }
}

extension Initiator {
    /// Waits up to `gracePeriod` for every phase to settle, then cancels what is left; a cancelled caller
    /// waits no longer.
    func finish(within gracePeriod: Duration) async {
        guard gracePeriod > .zero else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait(for: .finished, abandonOnCancel: true) }
            group.addTask { try? await Task.sleep(for: gracePeriod) }
            await group.next()
            group.cancelAll()
        }
        cancel()
    }
}
