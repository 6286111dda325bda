import Logging
import ModuleHost

extension Logger {
    /// Logs one startup event at the level an operator expects: a failed or timed-out operation at error, a
    /// skipped or cancelled one at warning, the end of startup at info (warning when an operation did not
    /// succeed), and the rest (phases, operations starting and succeeding, with their timings) at debug. The metadata holds
    /// `operation`, `module`, `phase`, `state`, `waited_ms`, `ran_ms` and `error` or `reason` where they apply.
    public func log(_ event: Initiator.Event) {
        switch event {
        case .phaseStarted(let phase), .phaseFinished(let phase):
            debug("\(event)", metadata: ["phase": "\(phase.rawValue)"])
        case .operationStarted(let identifier, let phase):
            debug("\(event)", metadata: ["operation": "\(identifier)", "phase": "\(phase.rawValue)"])
        case .operationFinished(let record):
            log(level: Self.level(for: record.state), "\(event)", metadata: Self.metadata(of: record))
        case .finished(let report):
            var metadata: Logger.Metadata = [:]
            for (state, count) in report.totals.counts where count > 0 {
                metadata[state] = "\(count)"
            }
            if let wallTime = report.totals.wallTime { metadata["wall_ms"] = "\(Self.milliseconds(wallTime))" }
            if let blocking = report.totals.blockingWallTime { metadata["blocking_ms"] = "\(Self.milliseconds(blocking))" }
            let hadProblems = report.operations.contains { $0.state.isProblem }
            log(level: hadProblems ? .warning : .info, "\(event)", metadata: metadata)
        @unknown default:
            // An event a later ModuleHost reports: logged, without metadata this version knows how to read.
            debug("\(event)")
        }
    }

    /// Logs every event `initiator` sends from now on (so call it before `start()`), until its last event;
    /// returns the task that does it.
    @discardableResult
    public func logEvents(of initiator: Initiator) -> Task<Void, Never> {
        let events = initiator.events
        let logger = self
        return Task {
            for await event in events {
                logger.log(event)
            }
        }
    }

    /// The log level for an operation that reached `state`.
    static func level(for state: StartupReport.OperationRecord.State) -> Logger.Level {
        switch state {
        case .failed, .timedOut: .error
        case .skipped, .cancelled: .warning
        case .succeeded, .pending, .running: .debug
        }
    }

    /// An operation record as metadata.
    static func metadata(of record: StartupReport.OperationRecord) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "operation": "\(record.identifier)",
            "phase": "\(record.phase.rawValue)",
            "state": "\(record.state.rawValue)",
        ]
        if let module = record.module { metadata["module"] = "\(module)" }
        if let waited = record.waited { metadata["waited_ms"] = "\(milliseconds(waited))" }
        if let ran = record.ran { metadata["ran_ms"] = "\(milliseconds(ran))" }
        if let error = record.error { metadata["error"] = "\(error)" }
        if let reason = record.reason { metadata["reason"] = "\(reason)" }
        return metadata
    }

    /// A duration in milliseconds, to three decimals.
    static func milliseconds(_ duration: Duration) -> Double {
        (duration / .microseconds(1)).rounded() / 1_000
    }
}
