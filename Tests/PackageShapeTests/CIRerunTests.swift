import Foundation
import Testing

/// `.ci/run` runs a SwiftPM command once more when SwiftPM itself dies of a signal (it crashed once in CI, in
/// libdispatch), and never reruns a build or test that fails. These tests run its `rerun_if_killed` function, as
/// written there, with commands that die of SIGILL or exit with 1, and check that every `swift build` and
/// `swift test` in the script goes through it.
@Suite("CI reruns a killed SwiftPM command")
struct CIRerunTests {
    private func script() throws -> String {
        try String(contentsOf: PackageDump.root.appendingPathComponent(".ci/run"), encoding: .utf8)
    }

    /// The function's text, from its first line to the `}` that closes it.
    private func rerunFunction() throws -> String {
        let lines = try script().split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("rerun_if_killed() {") }, "no rerun_if_killed() in .ci/run")
        let end = try #require(lines[start...].firstIndex { $0 == "}" }, "rerun_if_killed() is not closed")
        return lines[start...end].joined(separator: "\n")
    }

    /// Runs `rerun_if_killed attempt` under `set -euo pipefail`, where `attempt` counts its runs in a file and does
    /// what `outcomes` says for each run (`ill`: die of SIGILL, `fail`: exit 1, `ok`: exit 0).
    private func run(outcomes: [String]) async throws -> (status: Int32, runs: Int) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ci-rerun-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let counter = folder.appendingPathComponent("runs").path
        let test = """
            set -euo pipefail
            \(try rerunFunction())
            outcomes=(\(outcomes.joined(separator: " ")))
            attempt() {
                echo run >> '\(counter)'
                case "${outcomes[$(($(wc -l < '\(counter)') - 1))]}" in
                    ill) bash -c 'kill -ILL $$' ;;
                    fail) return 1 ;;
                    ok) return 0 ;;
                esac
            }
            rerun_if_killed attempt
            """
        let file = folder.appendingPathComponent("test.sh")
        try test.write(to: file, atomically: true, encoding: .utf8)
        let result = try await Subprocess.run(URL(fileURLWithPath: "/bin/bash"), [file.path], timeout: .seconds(60))
        let runs = (try? String(contentsOfFile: counter, encoding: .utf8))?.split(separator: "\n").count ?? 0
        return (result.status, runs)
    }

    @Test func aCommandKilledOnceIsRunAgainAndItsSecondStatusCounts() async throws {
        let passed = try await run(outcomes: ["ill", "ok"])
        #expect(passed.status == 0 && passed.runs == 2)
        let failed = try await run(outcomes: ["ill", "fail"])
        #expect(failed.status == 1 && failed.runs == 2)
    }

    @Test func aCommandKilledTwiceFailsTheRunWithItsSignalStatus() async throws {
        let killed = try await run(outcomes: ["ill", "ill", "ok"])
        #expect(killed.status == 132 && killed.runs == 2)
    }

    @Test func aFailingOrPassingCommandRunsOnce() async throws {
        let failed = try await run(outcomes: ["fail", "ok"])
        #expect(failed.status == 1 && failed.runs == 1)
        let passed = try await run(outcomes: ["ok", "ok"])
        #expect(passed.status == 0 && passed.runs == 1)
    }

    @Test func everySwiftPMCommandInTheScriptGoesThroughIt() throws {
        let commands = try script().split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.hasPrefix("#") && !$0.hasPrefix("stage ") }
            .filter { $0.contains("swift build") || $0.contains("swift test") }
        #expect(commands.count >= 8, "expected the script's builds and tests, found \(commands)")
        for command in commands {
            #expect(command.hasPrefix("rerun_if_killed swift "), "not run through rerun_if_killed: \(command)")
        }
    }
}
