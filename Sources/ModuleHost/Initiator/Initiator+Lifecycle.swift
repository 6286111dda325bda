extension Initiator {
    /// Validates the whole plan, runs the blocking phases (`.high`, then `.asyncHigh`) and returns their report.
    ///
    /// - An invalid plan runs nothing and throws `InitiatorError` with code `invalidPlan`, listing every problem.
    /// - A second call throws `InitiatorError` with code `alreadyStarted`.
    /// - If a required operation in a blocking phase fails, times out or is skipped because of a failure, the
    ///   rest of that phase settles, later phases are skipped, and it throws `requiredOperationFailed` with the report.
    /// - If the calling task is cancelled, running operations are cancelled, operations not started are marked
    ///   cancelled, and it throws `cancelled` with the report.
    ///
    /// - Returns: The report of the blocking phases.
    /// - Throws: `InitiatorError`, as listed above.
    @discardableResult
    public func start() async throws -> StartupReport {
        try prepare()
        await withTaskCancellationHandler {
            await wait(for: .blockingSettled, abandonOnCancel: false)
        } onCancel: {
            self.cancel()
        }
        let (report, stopReason) = state.withLock { ($0.makeReport(), $0.stopReason) }
        guard let stopReason else { return report }
        // Only these two stops happen once planned; the others were thrown by `prepare()`.
        let code: InitiatorError.Code = stopReason == .cancelled ? .cancelled : .requiredOperationFailed
        throw InitiatorError(code: code, message: stopReason.errorMessage, report: report)
    }

    /// Signals that the host is up (its "first frame"), releasing the `.afterFirstFrame` then `.low` phases.
    /// May be called before `start()` finishes; the signal is remembered.
    public func hostDidBecomeReady() {
        signal(.ready)
    }

    /// Signals that the host is idle, releasing the `.idle` phase once the earlier phases are done.
    /// Also implies `hostDidBecomeReady()`.
    public func hostDidBecomeIdle() {
        signal(.idle)
    }

    /// Runs everything that remains (signalling ready and idle, and starting if needed) and waits for it.
    ///
    /// If the calling task is cancelled, startup is cancelled as with `start()`.
    ///
    /// - Returns: The report once every phase has settled, or startup stopped.
    public func drain() async -> StartupReport {
        signal(.idle)
        let notStarted = state.withLock { state in
            if case .notStarted = state.lifecycle { return true }
            return false
        }
        if notStarted { _ = try? await start() }
        await withTaskCancellationHandler {
            await wait(for: .finished, abandonOnCancel: false)
        } onCancel: {
            self.cancel()
        }
        return report
    }

    /// Waits, without signalling anything, until every phase has settled (or startup stopped).
    ///
    /// If the calling task is cancelled, it returns the current snapshot early; startup goes on.
    ///
    /// - Returns: The report once every phase has settled (or startup stopped); the current snapshot when cancelled.
    public func waitUntilFinished() async -> StartupReport {
        await wait(for: .finished, abandonOnCancel: true)
        return report
    }

    /// Cancels a run that has started and not finished; one not started yet is left as it is. For a manager that
    /// goes away: the operations left could no longer reach it, and a run waiting for the host's signals would
    /// otherwise hold its plan, and every operation in it, for good.
    func cancelRunning() {
        guard state.withLock({ if case .running = $0.lifecycle { true } else { false } }) else { return }
        cancel()
    }

    /// Cancels startup: running operations are cancelled (and not waited for), operations not started are
    /// marked cancelled, and later phases do not run. Does nothing once startup has stopped or finished.
    ///
    /// The run is settled here, not by the driver, so that a body ignoring cancellation cannot delay it: the
    /// driver winds down on its own and its late results are ignored.
    public func cancel() {
        let now = StartupClock.now
        let stopped = state.withLock { state -> Cancellation? in
            guard !state.cancelBeforeRun(), case .running(let plan, let driver, let stage) = state.lifecycle else {
                return nil
            }
            let offset = state.offset(now)
            let events = state.settleRunningAsCancelled(at: offset) + state.settlePending(for: .cancelled)
            state.closeOpenPhases(at: offset)
            state.lifecycle = .finished(plan: plan, reason: .cancelled)
            var hostWaiter: CheckedContinuation<Void, Never>?
            if case .awaitingHost(_, let waiter) = stage { hostWaiter = waiter.continuation }
            return Cancellation(driver: driver, hostWaiter: hostWaiter, events: events,
                                waiters: state.takeSatisfiedWaiters(), subscribers: state.takeSubscribers(),
                                report: state.makeReport())
        }
        guard let stopped else { return }
        for subscriber in stopped.subscribers {
            for event in stopped.events { subscriber.yield(event) }
            subscriber.yield(.finished(stopped.report))
            subscriber.finish()
        }
        stopped.hostWaiter?.resume()
        stopped.driver.cancel()
        for waiter in stopped.waiters { waiter.resume() }
    }

    /// What `cancel()` takes from the state to act on once the lock is released.
    private struct Cancellation {
        let driver: Task<Void, Never>
        let hostWaiter: CheckedContinuation<Void, Never>?
        let events: [Event]
        let waiters: [CheckedContinuation<Void, Never>]
        let subscribers: [AsyncStream<Event>.Continuation]
        let report: StartupReport
    }

    /// Claims the start, gathers operations and validates the plan, then starts the driver.
    private func prepare() throws {
        let added: [StartupOperation] = try state.withLock { state in
            guard case .notStarted(let setup) = state.lifecycle else {
                throw InitiatorError(code: .alreadyStarted, message: "the initiator has already started",
                                     report: state.makeReport())
            }
            state.lifecycle = .planning(setup)
            state.origin = StartupClock.now
            return state.added
        }
        let declared: [StartupOperation]
        do {
            declared = try operationSource()
        } catch {
            let reason = StartupStopReason.operationSourceFailed(String(describing: error))
            finishWithoutRunning(added, reason: reason)
            throw InitiatorError(code: .operationSourceFailed, message: reason.errorMessage, report: report)
        }
        // No copy when one side is empty (the common case): `declared + added` copies every operation.
        let all = added.isEmpty ? declared : declared.isEmpty ? added : declared + added
        let plan: StartupPlan
        do {
            plan = try StartupPlan(operations: all)
        } catch {
            finishWithoutRunning(all, reason: .invalidPlan)
            throw error
        }
        // Built outside the lock, in plan order, so that a report shares the array.
        var records = StartupReport.OperationRecord.pendingRecords(of: plan.operations, in: plan.orderIndices)
        state.withLock { state in
            state.added = []
            // Moved in, not shared: the driver may record its first step before this function returns, and a
            // second reference would make that step copy every record.
            swap(&state.records, &records)
            state.positions = plan.positions
            let driver = Task { await self.drive(plan) }
            let cancelled = state.isCancelled
            state.lifecycle = cancelled
                ? .stopping(plan: plan, driver: driver, reason: .cancelled)
                : .running(plan: plan, driver: driver, stage: .blockingPhases)
        }
    }

    /// Marks every operation skipped and the initiator finished, for a start that cannot run anything.
    private func finishWithoutRunning(_ operations: [StartupOperation], reason: StartupStopReason) {
        let (waiters, subscribers, report) = state.withLock { state in
            state.records = operations.map {
                var record = StartupReport.OperationRecord(pending: $0)
                record.state = reason.notRunState
                record.reason = reason.notRunReason
                return record
            }
            state.positions = Array(operations.indices)
            state.added = []
            state.lifecycle = .finished(plan: nil, reason: reason)
            return (state.takeSatisfiedWaiters(), state.takeSubscribers(), state.makeReport())
        }
        for subscriber in subscribers {
            subscriber.yield(.finished(report))
            subscriber.finish()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Records a ready/idle signal and wakes the driver if it is waiting for it.
    private func signal(_ level: InitiatorState.HostSignal) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.hostSignal = max(state.hostSignal, level)
            guard case .running(let plan, let driver, .awaitingHost(let awaited, let waiter)) = state.lifecycle,
                  state.hostSignal >= awaited else { return nil }
            state.lifecycle = .running(plan: plan, driver: driver, stage: .laterPhases)
            return waiter.continuation
        }
        waiter?.resume()
    }

    /// Suspends until `milestone`; when `abandonOnCancel`, cancellation of the caller resumes it early.
    func wait(for milestone: InitiatorState.Milestone, abandonOnCancel: Bool) async {
        let id = state.withLock { $0.makeID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.reached(milestone) || (!state.abandonedWaiters.isEmpty && state.abandonedWaiters.remove(id) != nil) {
                        return true
                    }
                    state.waiters.append(InitiatorState.Waiter(id: id, milestone: milestone, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            guard abandonOnCancel else { return }
            let waiter = state.withLock { state in
                if let index = state.waiters.firstIndex(where: { $0.id == id }) { return Optional(state.waiters.remove(at: index)) }
                if !state.reached(milestone) { state.abandonedWaiters.insert(id) }
                return nil
            }
            waiter?.continuation.resume()
        }
    }
}
