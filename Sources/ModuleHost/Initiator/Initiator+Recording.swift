extension InitiatorState {
    /// The offset of `instant` from the initiator's start.
    func offset(_ instant: ContinuousClock.Instant) -> Duration {
        origin.map { instant - $0 } ?? .zero
    }

    /// Settles every pending operation as `stop` left it (skipped or cancelled); returns the events.
    mutating func settlePending(for stop: StartupStopReason) -> [InitiatorEvent] {
        var events: [InitiatorEvent] = []
        for index in reportOrder where records[index].state == .pending {
            records[index].state = stop.notRunState
            records[index].reason = stop.notRunReason
            events.append(.operationFinished(records[index]))
        }
        return events
    }

    /// Marks every running operation cancelled, finished at `offset`; returns the events.
    mutating func settleRunningAsCancelled(at offset: Duration) -> [InitiatorEvent] {
        var events: [InitiatorEvent] = []
        for index in reportOrder where records[index].state == .running {
            records[index].state = .cancelled
            records[index].reason = "cancelled while running"
            records[index].finishedAt = offset
            events.append(.operationFinished(records[index]))
        }
        return events
    }

    /// Marks every phase that started and has not finished as finished at `offset`.
    mutating func closeOpenPhases(at offset: Duration) {
        for rank in phases.indices where phases[rank].startedAt != nil && phases[rank].finishedAt == nil {
            phases[rank].finishedAt = offset
        }
    }

    /// Skips every pending transitive dependent of the operation at `root`, which did not succeed.
    mutating func skipDependents(of root: Int, dependents: AdjacencyList) -> [InitiatorEvent] {
        let rootName = records[root].identifier
        let verb = OperationRecord.verb(for: records[root].state)
        var events: [InitiatorEvent] = []
        var queue = [root]
        var head = 0
        while head < queue.count {
            let parent = queue[head]
            head += 1
            for child in dependents[parent] where records[child].state == .pending {
                records[child].state = .skipped
                records[child].reason = parent == root
                    ? "dependency \"\(rootName)\" \(verb)"
                    : "dependency \"\(records[parent].identifier)\" was skipped because \"\(rootName)\" \(verb)"
                events.append(.operationFinished(records[child]))
                queue.append(child)
            }
        }
        return events
    }

    /// The required operation of `phase` that stops startup: the first (in plan order) that failed or timed
    /// out, else the first that was skipped; `nil` when every required operation succeeded.
    func culprit(in phase: Initiator.Priority) -> StartupStopReason.Culprit? {
        // Only the records that can be culprits are copied: a phase that went well copies none.
        var skipped: StartupStopReason.Culprit?
        for index in reportOrder where records[index].phase == phase && records[index].failurePolicy == .required {
            switch records[index].state {
            case .failed, .timedOut: return StartupStopReason.Culprit(records[index])
            case .skipped: if skipped == nil { skipped = StartupStopReason.Culprit(records[index]) }
            case .pending, .running, .succeeded, .cancelled: continue
            }
        }
        return skipped
    }
}

extension Initiator {
    /// Delivers events to every subscriber; never called with the lock held.
    func emit(_ events: [InitiatorEvent]) {
        guard !events.isEmpty else { return }
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers {
            for event in events { subscriber.yield(event) }
        }
    }

    /// Records that `phase` began.
    func recordPhaseStarted(_ phase: Priority) {
        let now = clock.now
        state.withLock { $0.phases[phase.rank].startedAt = $0.offset(now) }
        emit([.phaseStarted(phase)])
    }

    /// Records that `phase` settled; for a blocking phase, decides whether startup must stop.
    func recordPhaseFinished(_ phase: Priority) {
        let now = clock.now
        state.withLock { state in
            if state.phases[phase.rank].finishedAt == nil { state.phases[phase.rank].finishedAt = state.offset(now) }
            guard phase.isBlocking, case .running(let plan, let driver, _) = state.lifecycle,
                  let culprit = state.culprit(in: phase) else { return }
            state.lifecycle = .stopping(plan: plan, driver: driver, reason: .requiredOperationDidNotSucceed(culprit))
        }
        emit([.phaseFinished(phase)])
    }

    /// The operations of `phase` still pending, in plan order.
    func pendingOperations(in phase: Priority) -> [Int] {
        state.withLock { state in
            state.reportOrder.filter { state.records[$0].phase == phase && state.records[$0].state == .pending }
        }
    }

    /// Records that the given operations became ready now.
    func recordReady(_ indices: [Int]) {
        let now = clock.now
        state.withLock { state in
            let offset = state.offset(now)
            for index in indices where state.records[index].state == .pending {
                state.records[index].readyAt = offset
            }
        }
    }

    /// Marks an operation running, unless it is no longer pending or startup was cancelled.
    func recordStarted(_ index: Int) -> Bool {
        let now = clock.now
        let started: (event: InitiatorEvent?, subscribers: [AsyncStream<InitiatorEvent>.Continuation])? = state.withLock { state in
            guard !state.isCancelled, state.records[index].state == .pending else { return nil }
            state.records[index].state = .running
            state.records[index].startedAt = state.offset(now)
            guard !state.subscribers.isEmpty else { return (nil, []) }
            let record = state.records[index]
            return (.operationStarted(identifier: record.identifier, phase: record.phase), Array(state.subscribers.values))
        }
        guard let started else { return false }
        if let event = started.event {
            for subscriber in started.subscribers { subscriber.yield(event) }
        }
        return true
    }

    /// Records how an operation ended (at `now`), skips its dependents if it did not succeed, and records that
    /// `ready` (the dependents its success made ready) are ready, all under one lock.
    func recordFinished(_ index: Int, outcome: OperationOutcome, at now: ContinuousClock.Instant, dependents: AdjacencyList,
                        ready: [Int] = []) {
        let (events, subscribers) = state.withLock { state -> ([InitiatorEvent], [AsyncStream<InitiatorEvent>.Continuation]) in
            guard state.records[index].state == .running else { return ([], []) }
            let offset = state.offset(now)
            state.records[index].finishedAt = offset
            for dependent in ready where state.records[dependent].state == .pending {
                state.records[dependent].readyAt = offset
            }
            switch outcome {
            case .succeeded:
                state.records[index].state = .succeeded
            case .failed(let message):
                state.records[index].state = .failed
                state.records[index].error = message
            case .timedOut(let limit):
                state.records[index].state = .timedOut
                state.records[index].error = "timed out after \(StartupReport.formatMilliseconds(limit)) ms"
            case .cancelled:
                state.records[index].state = .cancelled
                state.records[index].reason = "cancelled while running"
            }
            var events: [InitiatorEvent] = []
            if !state.subscribers.isEmpty { events.append(.operationFinished(state.records[index])) }
            if outcome != .succeeded {
                events += state.skipDependents(of: index, dependents: dependents)
            }
            guard !events.isEmpty, !state.subscribers.isEmpty else { return ([], []) }
            return (events, Array(state.subscribers.values))
        }
        for subscriber in subscribers {
            for event in events { subscriber.yield(event) }
        }
    }
}
