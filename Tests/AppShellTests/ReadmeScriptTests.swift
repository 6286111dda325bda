import Foundation
import TestSupport
import Testing

/// The README's scripted session works on every run, not only the first (the session it starts persists).
@Suite("README scripted example")
struct ReadmeScriptTests {
    /// The input of the README's `printf '…' | swift run app-shell -q` example, as printf would write it.
    static func readmeScript() throws -> String {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Scripted") && $0.contains("| swift run app-shell -q") })
        let quoted = try #require(line.split(separator: "printf '").last?.split(separator: "'").first)
        return quoted.replacingOccurrences(of: "\\n", with: "\n")
    }

    @Test func theScriptedExampleSucceedsOnEveryRun() async throws {
        let script = try Self.readmeScript()
        #expect(script.hasPrefix("login alice\nwonderland\n"))
        let workspace = try Workspace()
        for run in 1...2 {
            let result = try await workspace.run(["-q"], input: script)
            #expect(result.status == 0, "run \(run): \(result.stderr)")
            #expect(result.stdout.contains("Logged in as Alice (alice)."), "run \(run): \(result.stdout)")
            #expect(result.stdout.contains("2305843009213693951 is"), "run \(run): \(result.stdout)")
            #expect(!result.all.contains("wonderland"), "the password is never shown")
        }
    }
}
