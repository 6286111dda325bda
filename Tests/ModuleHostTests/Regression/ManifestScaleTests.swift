import Foundation
import Testing
@testable import ModuleHost

/// Issue 13, points 3 to 5: manifests at scale cost work linear in their size and get bounded reports.
@Suite("Manifests at scale")
struct ManifestScaleTests {
    private func errors(_ data: Data) -> [ManifestDiagnostic] {
        do {
            try ModuleManager.forTesting().registerModules(from: data, file: "modules.json")
            return []
        } catch {
            return error.diagnostics
        }
    }

    /// The fastest of three parses of a document holding one string of `count` `\u00e9` escapes.
    private func fastestParse(escapes count: Int) throws -> Duration {
        let document = Array(("\"" + String(repeating: #"\u00e9"#, count: count) + "\"").utf8)
        var fastest = Duration.seconds(1_000)
        for _ in 0..<3 {
            let clock = ContinuousClock()
            let start = clock.now
            let value = try JSONParser.parse(document)
            fastest = min(fastest, clock.now - start)
            guard case .string(let text) = value.kind else { Issue.record("not a string"); return fastest }
            #expect(text.unicodeScalars.count == count)
        }
        return fastest
    }

    /// Point 3: a ratio of two sizes, not a timed assertion. Linear parsing makes 4x the escapes cost about 4x;
    /// the old per-escape append made it cost about 16x (measured 12x to 16x in debug builds).
    @Test func stringOfEscapesParsesInLinearTime() throws {
        let small = try fastestParse(escapes: 40_000)
        let large = try fastestParse(escapes: 160_000)
        let ratio = large / small
        #expect(ratio < 8, "4x the escapes cost \(ratio)x the time (\(small) -> \(large)); linear is about 4x")
    }
}
