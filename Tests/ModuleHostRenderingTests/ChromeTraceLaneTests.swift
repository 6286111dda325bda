import Testing
@testable import ModuleHostRendering

/// Spans that overlap in time never share a lane; a lane free again is reused.
@Suite("Chrome trace lanes")
struct ChromeTraceLaneTests {
    @Test func overlappingSpansGetDistinctLanes() {
        let intervals: [(start: Duration, end: Duration)] = [
            (.milliseconds(0), .milliseconds(10)), (.milliseconds(5), .milliseconds(15)),
            (.milliseconds(10), .milliseconds(20)), (.milliseconds(12), .milliseconds(13)),
        ]
        let lanes = ChromeTrace.lanes(intervals)
        #expect(lanes[0] != lanes[1])
        #expect(lanes[1] != lanes[2])
        #expect(lanes[2] != lanes[3])
        #expect(lanes[1] != lanes[3])
        #expect(lanes[2] == lanes[0])  // the first ended when the third started: its lane is reused
        #expect(Set(lanes) == [1, 2, 3])
    }

    @Test func lanesFollowStartOrderNotInputOrder() {
        let lanes = ChromeTrace.lanes([(.milliseconds(5), .milliseconds(6)), (.milliseconds(0), .milliseconds(10))])
        #expect(lanes == [2, 1])
    }
}
