import Logging
import ModuleHost

extension Logger {
    /// Logs one module's teardown: a finished one at debug, one that timed out (and was no longer waited for) at
    /// error, with `module`, `outcome`, `duration_ms` and `time_limit_ms` in the metadata.
    public func log(_ record: ModuleManager.TeardownRecord) {
        let metadata: Logger.Metadata = [
            "module": "\(record.module)",
            "outcome": "\(record.outcome.rawValue)",
            "duration_ms": "\(Self.milliseconds(record.duration))",
            "time_limit_ms": "\(Self.milliseconds(record.timeLimit))",
        ]
        switch record.outcome {
        case .finished: debug("\(record)", metadata: metadata)
        case .timedOut: error("\(record)", metadata: metadata)
        }
    }
}
