extension DisplayText {
    /// A duration as people read it in a log line: `12.5 ms` below a second, `2.35 s` from one second on
    /// (rounded down; no `String(format:)`, which FoundationEssentials lacks).
    package static func duration(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return "-" + self.duration(.zero - duration) }
        if seconds == 0 {
            let tenthsOfMilliseconds = attoseconds / 100_000_000_000_000
            return "\(tenthsOfMilliseconds / 10).\(tenthsOfMilliseconds % 10) ms"
        }
        let hundredths = attoseconds / 10_000_000_000_000_000
        return "\(seconds).\(hundredths < 10 ? "0" : "")\(hundredths) s"
    }
}
