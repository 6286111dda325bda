extension Initiator {
    /// Runs every phase in order, waiting for the host's signals before the later ones, then finishes.
    func drive(_ plan: StartupPlan) async {
        for phase in ModuleStartupOperation.Priority.allCases {
            guard isRunning() else { break }
            if phase == .afterFirstFrame {
                await settleBlockingPhasesAndWait(for: .ready)
            } else if phase == .idle {
                await waitForHost(.idle)
            }
            guard isRunning() else { break }
            recordPhaseStarted(phase)
            let scheduler = PhaseScheduler(
                initiator: self, plan: plan, phase: phase,
                limit: phase.isSerial ? 1 : maxConcurrentOperations)
            await scheduler.run()
            recordPhaseFinished(phase)
        }
        finishRun()
    }

    /// Whether startup should go on: neither cancelled nor stopped by a required failure.
    private func isRunning() -> Bool {
        state.withLock(\.isRunning)
    }

    /// Marks the blocking phases settled, which wakes `start()`, then waits for the host's `level` signal.
    private func settleBlockingPhasesAndWait(for level: InitiatorState.HostSignal) async {
        let waiters = state.withLock { state in
            guard case .running(let plan, let driver, .blockingPhases) = state.lifecycle else { return [CheckedContinuation<Void, Never>]() }
            state.lifecycle = .running(plan: plan, driver: driver, stage: .laterPhases)
            return state.takeSatisfiedWaiters()
        }
        for waiter in waiters { waiter.resume() }
        await waitForHost(level)
    }

    /// Suspends the driver until the host has signalled `level`, or startup is cancelled.
    private func waitForHost(_ level: InitiatorState.HostSignal) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                guard state.hostSignal < level, case .running(let plan, let driver, _) = state.lifecycle else { return true }
                state.lifecycle = .running(plan: plan, driver: driver, stage: .awaitingHost(level: level, driver: InitiatorState.HostWaiter(continuation)))
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Settles whatever did not run, marks the initiator finished and wakes every waiter and subscriber.
    private func finishRun() {
        let (events, waiters, subscribers, report) = state.withLock { state in
            let reason = state.stopReason
            let events = reason.map { state.settlePending(for: $0) } ?? []
            state.lifecycle = .finished(plan: state.plan, reason: reason)
            return (events, state.takeSatisfiedWaiters(), state.takeSubscribers(), state.makeReport())
        }
        for subscriber in subscribers {
            for event in events { subscriber.yield(event) }
            subscriber.yield(.finished(report))
            subscriber.finish()
        }
        for waiter in waiters { waiter.resume() }
    }
}
