#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import ModuleHostRendering

extension StartupReport {
    /// The report in Chrome Trace Event format (`{"traceEvents": [...], "displayTimeUnit": "ms"}`),
    /// loadable in Perfetto or chrome://tracing.
    ///
    /// Every operation that started and finished becomes one complete (`"X"`) event named by its identifier,
    /// with its phase as category, `ts`/`dur` in microseconds, pid 1 and a lane as tid (operations that
    /// overlap in time get different lanes). Metadata (`"M"`) events name the process and lanes; global
    /// instant (`"i"`) events mark where each phase began and ended.
    ///
    /// ```swift
    /// try report.chromeTrace().write(to: URL(fileURLWithPath: "startup-trace.json"))
    /// ```
    ///
    /// - Returns: The trace, as JSON with sorted keys.
    /// - Throws: The JSON encoder's error.
    public func chromeTrace() throws -> Data {
        var marks: [(name: String, category: String, at: Duration)] = []
        for phase in phases {
            if let startedAt = phase.startedAt { marks.append(("\(phase.phase.rawValue) began", "phase", startedAt)) }
            if let finishedAt = phase.finishedAt { marks.append(("\(phase.phase.rawValue) ended", "phase", finishedAt)) }
        }
        let spans = operations.compactMap { record -> ChromeTrace.Span? in
            guard let startedAt = record.startedAt, let finishedAt = record.finishedAt else { return nil }
            return ChromeTrace.Span(name: record.identifier, category: record.phase.rawValue, start: startedAt, end: finishedAt,
                                    state: record.state.rawValue, module: record.module?.rawValue ?? "",
                                    waitedMilliseconds: record.waited?.milliseconds, error: record.message)
        }
        return try ChromeTrace.encode(process: "ModuleHost startup", marks: marks, spans: spans)
    }
}
