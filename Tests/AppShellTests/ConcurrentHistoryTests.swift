import Foundation
import TestSupport
import Testing

/// Processes that share a state folder each add their lookups to the one history file: an advisory lock and a fresh
/// read before each write keep every entry, up to the limit (no last-writer-wins).
@Suite("History shared by processes")
struct ConcurrentHistoryTests {
    @Test func twentyProcessesLookingUpAtOnceLoseNoEntry() async throws {
        let workspace = try Workspace()
        let first = try await workspace.run(["-q", "fact", "1"])
        #expect(first.status == 0, "\(first.stderr)")
        // Twenty one-shot lookups at once (bounded: each is one short process).
        let folder = workspace.url
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for n in 2...21 {
                group.addTask { try await ShellProcess.run(["-q", "fact", "\(n)"], in: folder).status }
            }
            return try await group.reduce(into: [Int32]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 0 }, "\(statuses)")
        let history = try await workspace.run(["-q", "--json", "history"])
        #expect(history.status == 0, "\(history.stderr)")
        let result = try #require(JSONLines.data(history.stdout, type: "result") as? [String: Any], "\(history.stdout)")
        let entries = try #require(result["value"] as? [[String: Any]], "\(result)")
        let numbers = Set(entries.compactMap { ($0["fact"] as? [String: Any])?["number"] as? String ?? (($0["fact"] as? [String: Any])?["number"] as? Int).map(String.init) })
        #expect(entries.count == 21, "\(entries.count) entries kept of 21")
        #expect(numbers == Set((1...21).map(String.init)), "\(numbers.sorted())")
    }
}

extension ConcurrentHistoryTests {
    /// While another process holds the history's lock, a lookup says it waits, waits a bounded time, prints its fact
    /// all the same and says the lookup was not saved. It used to wait without limit or word, printing nothing.
    @Test(.timeLimit(.minutes(2)))
    func aLookupWhileAnotherProcessHoldsTheLockSaysSoAndStillPrintsTheFact() async throws {
        let workspace = try Workspace()
        let first = try await workspace.run(["-q", "fact", "1"])
        #expect(first.status == 0, "\(first.stderr)")
        let lock = workspace.url.appendingPathComponent(".app-shell/com.modulehost.numbers/numbers-history.json.lock").path
        let descriptor = open(lock, O_RDWR | O_CREAT, 0o600)
        try #require(descriptor >= 0, "cannot open \(lock)")
        defer { close(descriptor) }
        try #require(flock(descriptor, LOCK_EX) == 0)
        let lookup = try await workspace.run(["fact", "6"])
        #expect(lookup.status == 0, "\(lookup.stderr)")
        #expect(lookup.stdout.contains("6 is a perfect number"), "the fact was held back: \(lookup.stdout)")
        #expect(lookup.stderr.contains("waiting for \(lock), which another process holds"), "\(lookup.stderr)")
        #expect(lookup.stderr.contains("the lookup was not saved"), "\(lookup.stderr)")
    }
}
