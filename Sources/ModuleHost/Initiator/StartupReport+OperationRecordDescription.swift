extension StartupReport.OperationRecord: CustomStringConvertible {
    /// One line for a log, naming the operation, its module and phase, its state and what explains it:
    /// `operation "db.open" of com.example.db (phase high) succeeded in 12.5 ms (waited 0.1 ms)`,
    /// `operation "db.open" of com.example.db (phase high) failed after 3.0 ms: disk full`,
    /// `operation "cache.warm" (phase low) was skipped: "db.open" failed`.
    public var description: String {
        let module = module.map { " of \($0)" } ?? ""
        let head = "operation \(DisplayText.quoted(identifier, with: "\""))\(module) (phase \(phase.rawValue))"
        switch state {
        case .succeeded:
            let waited = waited.map { $0 > .zero ? " (waited \(DisplayText.duration($0)))" : "" } ?? ""
            return "\(head) succeeded\(ran.map { " in \(DisplayText.duration($0))" } ?? "")\(waited)"
        case .failed, .timedOut:
            let after = ran.map { " after \(DisplayText.duration($0))" } ?? ""
            return "\(head) \(Self.verb(for: state))\(after)\(message.map { ": \($0)" } ?? "")"
        case .skipped, .cancelled, .running, .pending:
            return "\(head) \(Self.verb(for: state))\(message.map { ": \($0)" } ?? "")"
        }
    }
}
