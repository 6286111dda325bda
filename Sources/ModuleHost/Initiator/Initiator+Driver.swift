extension Initiator {
    /// Runs every phase in order, waiting for the host's signals before the later ones, then finishes.
    func drive(_ plan: StartupPlan) async {
        for phase in Priority.allCases {
            guard shouldContinue() else { break }
            if phase == .afterFirstFrame {
                settleBlockingPhases()
                await waitForSignal(idle: false)
            } else if phase == .idle {
                await waitForSignal(idle: true)
            }
            guard shouldContinue() else { break }
            recordPhaseStarted(phase)
            let scheduler = PhaseScheduler(
                initiator: self, plan: plan, phase: phase,
                limit: phase.isSerial ? 1 : maxConcurrentOperations)
            await scheduler.run()
            recordPhaseFinished(phase)
        }
        finishRun()
    }

    /// Whether startup should go on: not cancelled and not stopped by a required failure.
    private func shouldContinue() -> Bool {
        state.withLock { !$0.cancelRequested && $0.stopReason == nil }
    }

    /// Marks the blocking phases settled and wakes `start()`.
    private func settleBlockingPhases() {
        let waiters = state.withLock { state in
            state.blockingSettled = true
            return state.takeSatisfiedWaiters()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Suspends the driver until the host signals ready (or idle), or startup is cancelled.
    private func waitForSignal(idle: Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.cancelRequested || (idle ? state.idleSignalled : state.readySignalled) { return true }
                state.signalWaiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Settles whatever did not run, marks the initiator finished and wakes every waiter and subscriber.
    private func finishRun() {
        let (events, waiters, subscribers, report) = state.withLock { state in
            var events: [InitiatorEvent]
            if state.cancelRequested {
                events = state.settlePending(as: .cancelled, reason: "startup was cancelled")
            } else if let stopReason = state.stopReason {
                let reason = stopReason.replacingFirst("startup stopped: ", with: "not run: startup stopped because ")
                events = state.settlePending(as: .skipped, reason: reason)
            } else {
                events = []
            }
            state.lifecycle = .finished
            state.blockingSettled = true
            state.driver = nil
            let subscribers = Array(state.subscribers.values)
            state.subscribers = [:]
            return (events, state.takeSatisfiedWaiters(), subscribers, state.makeReport())
        }
        for subscriber in subscribers {
            for event in events { subscriber.yield(event) }
            subscriber.yield(.finished(report))
            subscriber.finish()
        }
        for waiter in waiters { waiter.resume() }
    }
}

extension String {
    /// The string with its prefix `prefix` replaced by `replacement`, if it has that prefix.
    fileprivate func replacingFirst(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
