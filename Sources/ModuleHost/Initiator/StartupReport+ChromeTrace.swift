#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    public func chromeTrace() throws -> Data {
        var events: [TraceEvent] = [
            TraceEvent(name: "process_name", ph: "M", tid: 0, args: TraceArguments(name: "ModuleHost startup")),
            TraceEvent(name: "thread_name", ph: "M", tid: 0, args: TraceArguments(name: "phases")),
        ]
        let lanes = Self.assignLanes(operations)
        for lane in Set(lanes.values).sorted() {
            events.append(TraceEvent(name: "thread_name", ph: "M", tid: lane, args: TraceArguments(name: "lane \(lane)")))
        }
        for phase in phases {
            if let startedAt = phase.startedAt {
                events.append(TraceEvent(name: "\(phase.phase.rawValue) began", cat: "phase", ph: "i", s: "g", ts: startedAt.microseconds, tid: 0))
            }
            if let finishedAt = phase.finishedAt {
                events.append(TraceEvent(name: "\(phase.phase.rawValue) ended", cat: "phase", ph: "i", s: "g", ts: finishedAt.microseconds, tid: 0))
            }
        }
        for (index, record) in operations.enumerated() {
            guard let startedAt = record.startedAt, let ran = record.ran, let lane = lanes[index] else { continue }
            let arguments = TraceArguments(state: record.state.rawValue, module: record.module?.rawValue ?? "",
                                           waitedMs: record.waited?.milliseconds, error: record.message)
            events.append(TraceEvent(name: record.identifier, cat: record.phase.rawValue, ph: "X",
                                     ts: startedAt.microseconds, dur: ran.microseconds, tid: lane, args: arguments))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(Trace(traceEvents: events))
    }

    /// The trace file: its events, shown in milliseconds.
    private struct Trace: Encodable {
        let traceEvents: [TraceEvent]
        var displayTimeUnit = "ms"
    }

    /// One Trace Event Format event; absent fields are left out.
    private struct TraceEvent: Encodable {
        var name: String
        var cat: String?
        var ph: String
        var s: String?
        var ts: Double?
        var dur: Double?
        var pid = 1
        var tid: Int
        var args: TraceArguments?
    }

    /// An event's `args`: a metadata name, or an operation's details.
    private struct TraceArguments: Encodable {
        var name: String?
        var state: String?
        var module: String?
        var waitedMs: Double?
        var error: String?
    }

    /// Assigns each operation that ran a lane (1, 2, …) so that operations overlapping in time never share
    /// one: greedy interval partitioning in start order, reusing the lowest lane that is free again.
    static func assignLanes(_ records: [OperationRecord]) -> [Int: Int] {
        let ran = records.indices
            .filter { records[$0].startedAt != nil && records[$0].finishedAt != nil }
            .sorted { (records[$0].startedAt ?? .zero, $0) < (records[$1].startedAt ?? .zero, $1) }
        var laneEnds: [Duration] = []
        var lanes: [Int: Int] = [:]
        for index in ran {
            let start = records[index].startedAt ?? .zero
            let end = records[index].finishedAt ?? start
            if let free = laneEnds.firstIndex(where: { $0 <= start }) {
                laneEnds[free] = end
                lanes[index] = free + 1
            } else {
                laneEnds.append(end)
                lanes[index] = laneEnds.count
            }
        }
        return lanes
    }
}
