#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A trace in Chrome's Trace Event Format (`{"traceEvents": [...], "displayTimeUnit": "ms"}`), loadable in Perfetto
/// or chrome://tracing: spans of work as complete (`"X"`) events in lanes, and global instant (`"i"`) marks.
public enum ChromeTrace {
    /// One piece of work that started and finished.
    public struct Span {
        /// The event's name.
        public let name: String
        /// Its category.
        public let category: String
        /// When it started and finished, from the trace's origin.
        public let start: Duration, end: Duration
        /// What the event's `args` say: its state, its owner, how long it waited, its error.
        public let state: String, module: String, waitedMilliseconds: Double?, error: String?

        /// A span.
        ///
        /// - Parameters:
        ///   - name: The event's name.
        ///   - category: Its category.
        ///   - start: When it started, from the trace's origin.
        ///   - end: When it finished.
        ///   - state: How it ended, for `args.state`.
        ///   - module: Its owner, for `args.module`.
        ///   - waitedMilliseconds: How long it waited to start, for `args.waitedMs`.
        ///   - error: Its error, for `args.error`.
        public init(name: String, category: String, start: Duration, end: Duration, state: String, module: String,
                    waitedMilliseconds: Double?, error: String?) {
            self.name = name
            self.category = category
            self.start = start
            self.end = end
            self.state = state
            self.module = module
            self.waitedMilliseconds = waitedMilliseconds
            self.error = error
        }
    }

    /// The trace's JSON: metadata naming the process and the lanes, each mark as a global instant event on lane 0,
    /// and each span as a complete event (`ts`/`dur` in microseconds, pid 1) on a lane of its own while it overlaps
    /// another (``lanes(_:)``). Keys are sorted.
    ///
    /// - Parameters:
    ///   - process: The process's name in the trace.
    ///   - marks: Each instant's name, category and time.
    ///   - spans: The work.
    /// - Returns: The trace, encoded.
    /// - Throws: The encoder's error.
    public static func encode(process: String, marks: [(name: String, category: String, at: Duration)], spans: [Span]) throws -> Data {
        var events: [Event] = [
            Event(name: "process_name", ph: "M", tid: 0, args: Arguments(name: process)),
            Event(name: "thread_name", ph: "M", tid: 0, args: Arguments(name: "phases")),
        ]
        let lanes = Self.lanes(spans.map { ($0.start, $0.end) })
        for lane in Set(lanes).sorted() {
            events.append(Event(name: "thread_name", ph: "M", tid: lane, args: Arguments(name: "lane \(lane)")))
        }
        events += marks.map { Event(name: $0.name, cat: $0.category, ph: "i", s: "g", ts: $0.at.microseconds, tid: 0) }
        for (span, lane) in zip(spans, lanes) {
            events.append(Event(name: span.name, cat: span.category, ph: "X", ts: span.start.microseconds,
                                dur: (span.end - span.start).microseconds, tid: lane,
                                args: Arguments(state: span.state, module: span.module, waitedMs: span.waitedMilliseconds, error: span.error)))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(Trace(traceEvents: events))
    }

    /// A lane (1, 2, …) for each interval, so that intervals overlapping in time never share one: greedy interval
    /// partitioning in start order, reusing the lowest lane that is free again.
    ///
    /// - Parameter intervals: Each interval's start and end.
    /// - Returns: Each interval's lane, in the order given.
    public static func lanes(_ intervals: [(start: Duration, end: Duration)]) -> [Int] {
        var laneEnds: [Duration] = []
        var lanes = [Int](repeating: 0, count: intervals.count)
        for index in intervals.indices.sorted(by: { (intervals[$0].start, $0) < (intervals[$1].start, $1) }) {
            let (start, end) = intervals[index]
            if let free = laneEnds.firstIndex(where: { $0 <= start }) {
                laneEnds[free] = max(start, end)
                lanes[index] = free + 1
            } else {
                laneEnds.append(max(start, end))
                lanes[index] = laneEnds.count
            }
        }
        return lanes
    }

    /// The trace file: its events, shown in milliseconds.
    private struct Trace: Encodable {
        let traceEvents: [Event]
        var displayTimeUnit = "ms"
    }

    /// One event; absent fields are left out.
    private struct Event: Encodable {
        var name: String
        var cat: String?
        var ph: String
        var s: String?
        var ts: Double?
        var dur: Double?
        var pid = 1
        var tid: Int
        var args: Arguments?
    }

    /// An event's `args`: a metadata name, or a span's details.
    private struct Arguments: Encodable {
        var name: String?
        var state: String?
        var module: String?
        var waitedMs: Double?
        var error: String?
    }
}

extension Duration {
    /// The duration in microseconds, as trace timestamps count.
    var microseconds: Double {
        let (seconds, attoseconds) = components
        return (Double(seconds) * 1_000 + Double(attoseconds) / 1e15) * 1_000
    }
}
