extension Initiator {
    /// Validates the whole plan, runs the blocking phases (`.high`, then `.asyncHigh`) and returns their report.
    ///
    /// - An invalid plan runs nothing and throws the `StartupPlanError` listing every problem.
    /// - A second call throws `InitiatorError` with code `alreadyStarted`.
    /// - If a required operation in a blocking phase fails, times out or is skipped because of a failure, the
    ///   rest of that phase settles, later phases are skipped, and it throws `requiredOperationFailed` with the report.
    /// - If the calling task is cancelled, running operations are cancelled, operations not started are marked
    ///   cancelled, and it throws `cancelled` with the report.
    @discardableResult
    public func start() async throws -> StartupReport {
        let plan = try prepare()
        let driver = Task { await self.drive(plan) }
        let cancelledEarly = state.withLock { state in
            state.driver = driver
            return state.cancelRequested
        }
        if cancelledEarly { driver.cancel() }

        await withTaskCancellationHandler {
            await wait(for: .blockingSettled, abandonOnCancel: false)
        } onCancel: {
            self.cancel()
        }
        let (report, cancelled, stopReason) = state.withLock { ($0.makeReport(), $0.cancelRequested, $0.stopReason) }
        if cancelled {
            throw InitiatorError(code: .cancelled, message: "startup was cancelled", report: report)
        }
        if let stopReason {
            throw InitiatorError(code: .requiredOperationFailed, message: stopReason, report: report)
        }
        return report
    }

    /// Signals that the host is up (its "first frame"), releasing the `.afterFirstFrame` then `.low` phases.
    /// May be called before `start()` finishes; the signal is remembered.
    public func hostDidBecomeReady() {
        signal(idle: false)
    }

    /// Signals that the host is idle, releasing the `.idle` phase once the earlier phases are done.
    /// Also implies `hostDidBecomeReady()`.
    public func hostDidBecomeIdle() {
        signal(idle: true)
    }

    /// Runs everything that remains (signalling ready and idle, and starting if needed) and waits for it.
    ///
    /// If the calling task is cancelled, startup is cancelled as with `start()`.
    public func drain() async -> StartupReport {
        signal(idle: true)
        let notStarted = state.withLock { $0.lifecycle == .notStarted }
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
    public func waitUntilFinished() async -> StartupReport {
        await wait(for: .finished, abandonOnCancel: true)
        return report
    }

    /// Cancels startup: running operations are cancelled (and not waited for), operations not started are
    /// marked cancelled, and later phases do not run. Does nothing once startup has finished.
    public func cancel() {
        let (driver, signalWaiter, events) = state.withLock { state -> (Task<Void, Never>?, CheckedContinuation<Void, Never>?, [InitiatorEvent]) in
            guard state.lifecycle != .finished, !state.cancelRequested else { return (nil, nil, []) }
            state.cancelRequested = true
            let events = state.settlePending(as: .cancelled, reason: "startup was cancelled")
            let waiter = state.signalWaiter
            state.signalWaiter = nil
            return (state.driver, waiter, events)
        }
        emit(events)
        signalWaiter?.resume()
        driver?.cancel()
    }

    /// Claims the start, gathers operations and validates the plan; records the initial state.
    private func prepare() throws -> StartupPlan {
        let added: [StartupOperation] = try state.withLock { state in
            guard state.lifecycle == .notStarted else {
                throw InitiatorError(code: .alreadyStarted, message: "the initiator has already started",
                                     report: state.makeReport())
            }
            state.lifecycle = .running
            state.origin = clock.now
            return state.added
        }
        let declared: [StartupOperation]
        do {
            declared = try operationSource()
        } catch {
            finishWithoutRunning(added, reason: "not run: the modules' operations could not be read")
            throw InitiatorError(code: .operationSourceFailed,
                                 message: "could not read the modules' startup operations: \(error)",
                                 report: report)
        }
        let all = declared + added
        do {
            let plan = try StartupPlan(operations: all)
            state.withLock { state in
                state.plan = plan
                state.reportOrder = plan.orderIndices
                state.records = plan.operations.map {
                    OperationRecord(identifier: $0.identifier, module: $0.module, phase: $0.priority,
                                    dependencies: $0.dependencies, failurePolicy: $0.effectiveFailurePolicy)
                }
            }
            return plan
        } catch {
            finishWithoutRunning(all, reason: "not run: the startup plan is invalid")
            throw error
        }
    }

    /// Marks every operation skipped and the initiator finished, for a start that cannot run anything.
    private func finishWithoutRunning(_ operations: [StartupOperation], reason: String) {
        let (waiters, subscribers, report) = state.withLock { state in
            state.records = operations.map {
                OperationRecord(identifier: $0.identifier, module: $0.module, phase: $0.priority,
                                dependencies: $0.dependencies, failurePolicy: $0.effectiveFailurePolicy,
                                state: .skipped, reason: reason)
            }
            state.reportOrder = Array(operations.indices)
            state.lifecycle = .finished
            state.blockingSettled = true
            let subscribers = Array(state.subscribers.values)
            state.subscribers = [:]
            return (state.takeSatisfiedWaiters(), subscribers, state.makeReport())
        }
        for subscriber in subscribers {
            subscriber.yield(.finished(report))
            subscriber.finish()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Records a ready/idle signal and wakes the driver if it is waiting for one.
    private func signal(idle: Bool) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.readySignalled = true
            if idle { state.idleSignalled = true }
            let waiter = state.signalWaiter
            state.signalWaiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Suspends until `milestone`; when `abandonOnCancel`, cancellation of the caller resumes it early.
    func wait(for milestone: InitiatorState.Milestone, abandonOnCancel: Bool) async {
        let id = state.withLock { $0.makeID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.reached(milestone) || state.abandonedWaiters.remove(id) != nil { return true }
                    state.waiters[id] = InitiatorState.Waiter(milestone: milestone, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            guard abandonOnCancel else { return }
            let waiter = state.withLock { state in
                if let waiter = state.waiters.removeValue(forKey: id) { return Optional(waiter) }
                if !state.reached(milestone) { state.abandonedWaiters.insert(id) }
                return nil
            }
            waiter?.continuation.resume()
        }
    }
}
