extension Initiator {
    /// Delivers events to every subscriber; never called with the lock held.
    func emit(_ events: [Initiator.Event]) {
        guard !events.isEmpty else { return }
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers {
            for event in events { subscriber.yield(event) }
        }
    }

    /// Records that `phase` began.
    func recordPhaseStarted(_ phase: ModuleStartupOperation.Priority) {
        let now = StartupClock.now
        let hasSubscribers = state.withLock { state in
            state.phases[phase.rank].startedAt = state.offset(now)
            return !state.subscribers.isEmpty
        }
        if hasSubscribers { emit([.phaseStarted(phase)]) }
    }

    /// Records that `phase` settled; for a blocking phase, decides whether startup must stop.
    func recordPhaseFinished(_ phase: ModuleStartupOperation.Priority) {
        let now = StartupClock.now
        let hasSubscribers = state.withLock { state in
            if state.phases[phase.rank].finishedAt == nil { state.phases[phase.rank].finishedAt = state.offset(now) }
            if phase.isBlocking, case .running(let plan, let driver, _) = state.lifecycle,
               let culprit = state.culprit(among: plan.planPositions(of: phase)) {
                state.lifecycle = .stopping(plan: plan, driver: driver, reason: .requiredOperationDidNotSucceed(culprit))
            }
            return !state.subscribers.isEmpty
        }
        if hasSubscribers { emit([.phaseFinished(phase)]) }
    }

    /// The operations of `phase` still pending, in plan order (registration indices).
    func pendingOperations(in phase: ModuleStartupOperation.Priority, of plan: StartupPlan) -> [Int] {
        state.withLock { state in
            var members: [Int] = []
            for position in plan.planPositions(of: phase) where state.records[position].state == .pending {
                members.append(plan.orderIndices[position])
            }
            return members
        }
    }

    /// Records that the given operations (registration indices) became ready now.
    func recordReady(_ indices: [Int]) {
        let now = StartupClock.now
        state.withLock { state in
            let offset = state.offset(now)
            for index in indices where state.records[state.positions[index]].state == .pending {
                state.records[state.positions[index]].readyAt = offset
            }
        }
    }

    /// One step of a phase, under one lock and one clock reading (`now`):
    ///
    /// 1. records how `finished` ended, if given (at its own time, or `now` when it has none), skipping its
    ///    dependents if it did not succeed, and records that `ready` (the dependents its success made ready) are
    ///    ready at that time;
    /// 2. then, unless startup was cancelled, pops operations from `queue`, earliest first, and marks them
    ///    running at `now` until `slots` have started or the queue is empty; a popped operation that is no longer
    ///    pending is dropped. The started registration indices replace the contents of `started`.
    func recordStep(finished: FinishedOperation?, ready: [Int], queue: inout ReadyQueue, slots: Int,
                    started: inout [Int], dependents: AdjacencyList) {
        // No reading when the step only records a finish that brought its own time and has nothing to start.
        let needsNow = (finished.map { $0.finishedAt == nil } ?? true) || (slots > 0 && !queue.isEmpty)
        let now = needsNow ? StartupClock.now : .zero
        started.removeAll(keepingCapacity: true)
        let (events, subscribers) = state.withLock { state -> ([Initiator.Event], [AsyncStream<Initiator.Event>.Continuation]) in
            let observed = !state.subscribers.isEmpty
            var events: [Initiator.Event] = []
            if let finished {
                state.recordFinished(finished, at: state.offset(finished.finishedAt ?? now), ready: ready,
                                     dependents: dependents, events: &events, observed: observed)
            }
            if !state.isCancelled {
                let offset = state.offset(now)
                while started.count < slots, let index = queue.pop() {
                    let position = state.positions[index]
                    guard state.records[position].state == .pending else { continue }
                    state.records[position].state = .running
                    state.records[position].startedAt = offset
                    started.append(index)
                    if observed {
                        events.append(.operationStarted(identifier: state.records[position].identifier,
                                                        phase: state.records[position].phase))
                    }
                }
            }
            guard observed, !events.isEmpty else { return ([], []) }
            return (events, Array(state.subscribers.values))
        }
        for subscriber in subscribers {
            for event in events { subscriber.yield(event) }
        }
    }
}

/// How one operation's run ended, as the scheduler hands it to ``Initiator/recordStep(finished:ready:queue:slots:started:dependents:)``.
struct FinishedOperation: Sendable {
    /// The operation's registration index.
    var index: Int
    /// How its body ended.
    var outcome: OperationOutcome
    /// When it ended (a reading of the initiator's clock); `nil` means at the step's own clock reading.
    var finishedAt: Duration?
}

extension InitiatorState {
    /// Records how `finished` ended at `offset` (ignored unless it is running: a cancelled run was settled
    /// already), skips its dependents if it did not succeed and marks `ready` ready at `offset`; appends the
    /// events to `events` when `observed` (someone subscribed).
    mutating func recordFinished(_ finished: FinishedOperation, at offset: Duration, ready: [Int],
                                 dependents: AdjacencyList, events: inout [Initiator.Event], observed: Bool) {
        let position = positions[finished.index]
        guard records[position].state == .running else { return }
        records[position].finishedAt = offset
        for dependent in ready where records[positions[dependent]].state == .pending {
            records[positions[dependent]].readyAt = offset
        }
        switch finished.outcome {
        case .succeeded:
            records[position].state = .succeeded
        case .failed(let message):
            records[position].state = .failed
            records[position].error = message
        case .timedOut(let limit):
            records[position].state = .timedOut
            records[position].error = "timed out after \(StartupReport.formatMilliseconds(limit)) ms"
        case .cancelled:
            records[position].state = .cancelled
            records[position].reason = "cancelled while running"
        }
        if observed { events.append(.operationFinished(records[position])) }
        if finished.outcome != .succeeded {
            events += skipDependents(of: finished.index, dependents: dependents)
        }
    }
}
