extension InitiatorState {
    /// The offset of `instant` from the initiator's start.
    func offset(_ instant: Duration) -> Duration {
        origin.map { instant - $0 } ?? .zero
    }

    /// Settles every pending operation as `stop` left it (skipped or cancelled); returns the events (none
    /// when no one subscribed).
    mutating func settlePending(for stop: StartupStopReason) -> [Initiator.Event] {
        let observed = !subscribers.isEmpty
        var events: [Initiator.Event] = []
        for position in records.indices where records[position].state == .pending {
            records[position].state = stop.notRunState
            records[position].reason = stop.notRunReason
            if observed { events.append(.operationFinished(records[position])) }
        }
        return events
    }

    /// Marks every running operation cancelled, finished at `offset`; returns the events (none when no one
    /// subscribed).
    mutating func settleRunningAsCancelled(at offset: Duration) -> [Initiator.Event] {
        let observed = !subscribers.isEmpty
        var events: [Initiator.Event] = []
        for position in records.indices where records[position].state == .running {
            records[position].state = .cancelled
            records[position].reason = "cancelled while running"
            records[position].finishedAt = offset
            if observed { events.append(.operationFinished(records[position])) }
        }
        return events
    }

    /// Marks every phase that started and has not finished as finished at `offset`.
    mutating func closeOpenPhases(at offset: Duration) {
        for rank in phases.indices where phases[rank].startedAt != nil && phases[rank].finishedAt == nil {
            phases[rank].finishedAt = offset
        }
    }

    /// Skips every pending transitive dependent of the operation at registration index `root`, which did not
    /// succeed; returns the events (none when no one subscribed).
    mutating func skipDependents(of root: Int, dependents: AdjacencyList) -> [Initiator.Event] {
        let rootName = records[positions[root]].identifier
        let verb = StartupReport.OperationRecord.verb(for: records[positions[root]].state)
        let observed = !subscribers.isEmpty
        var events: [Initiator.Event] = []
        var queue = [root]
        var head = 0
        while head < queue.count {
            let parent = queue[head]
            head += 1
            for child in dependents[parent] where records[positions[child]].state == .pending {
                let position = positions[child]
                records[position].state = .skipped
                records[position].reason = parent == root
                    ? "dependency \"\(rootName)\" \(verb)"
                    : "dependency \"\(records[positions[parent]].identifier)\" was skipped because \"\(rootName)\" \(verb)"
                if observed { events.append(.operationFinished(records[position])) }
                queue.append(child)
            }
        }
        return events
    }

    /// The required operation of the phase whose records are at `positions` that stops startup: the first (in
    /// plan order) that failed or timed out, else the first that was skipped; `nil` when every required
    /// operation succeeded.
    func culprit(among positions: Range<Int>) -> StartupStopReason.Culprit? {
        // Only the records that can be culprits are copied: a phase that went well copies none.
        var skipped: StartupStopReason.Culprit?
        for position in positions where records[position].failurePolicy == .required {
            switch records[position].state {
            case .failed, .timedOut: return StartupStopReason.Culprit(records[position])
            case .skipped: if skipped == nil { skipped = StartupStopReason.Culprit(records[position]) }
            case .pending, .running, .succeeded, .cancelled: continue
            }
        }
        return skipped
    }
}
