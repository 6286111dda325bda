import Foundation
import ModuleHost
import ModuleHostState
import NumbersInterface
import Testing

@testable import NumbersModule
import ModuleHostTesting
import TestSupport

/// Writer and reader agree on the history file's bound, a file that cannot be used is never
/// overwritten, and history entries are printed with control characters escaped.
@Suite("NumbersModule history file", .disabled(if: Sanitizers.threadSanitizerIsActive, "CPU-bound, proves no concurrency property; runs in the plain suite"))
struct NumbersHistoryFileTests {
    private let directory: URL
    /// The module's own folder in the host's state folder (`directory`), which holds the history.
    private var folder: URL { directory.appendingPathComponent("com.modulehost.numbers", isDirectory: true) }
    private var historyFile: URL { folder.appendingPathComponent("numbers-history.json") }

    init() throws {
        directory = try ProcessScratch.folder("NumbersHistoryFileTests")
        // Private, as the app makes a state folder: one readable by others is reported, as a notice of its own.
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    private func manager(config: String = "{}", user: String? = nil, notices: NoticeLog<String>) throws -> ModuleManager {
        let manager = ModuleManager()
        manager.provide(HostEnvironment(stateDirectory: directory, manifestDirectory: directory) { notices.append($0.message) },
                       as: HostEnvironment.self)
        try manager.registerModules(from: Data(#"{"modules": [{"type": "NumbersModule.NumbersModule", "config": \#(config)}]}"#.utf8))
        if let user { manager.beginUserSession(with: user) }
        return manager
    }

    /// The history file as the format defines it, written without the module's code.
    private func writeHistory(_ users: [String: [NumberFactHistoryEntry]]) throws -> Int {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let data = try encoder.encode(FactHistoryStore.Contents(users: users))
        try data.write(to: historyFile)
        return data.count
    }

    private func entries(_ count: Int, content: (Int) -> String, from start: Double = 1_700_000_000) -> [NumberFactHistoryEntry] {
        (0..<count).map { index in
            NumberFactHistoryEntry(fact: NumberFact(number: 9_223_372_036_854_700_000 + Int64(index), content: content(index), kind: .collatz),
                                   lookedUpAt: Date(timeIntervalSince1970: start + Double(index)))
        }
    }

    /// The reported case: two users with 10,000 entries each (over 4 MiB) were refused, then overwritten.
    @Test func twoFullHistoriesAtTheLargestLimitAreRestoredAndKept() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let sentence = "Starting from 9223372036854775000, the Collatz map (halve if even, triple and add 1 if odd) leaves the Int64 range after 3 steps."
        let size = try writeHistory(["alice": entries(10_000) { "\(sentence) #\($0)" }, "bob": entries(10_000) { "\(sentence) #\($0)" }])
        #expect(size > 4 << 20)
        let notices = NoticeLog<String>()
        let manager = try manager(config: #"{"historyLimit": 10000}"#, user: "alice", notices: notices)
        _ = try await manager.initiator.start()
        let numbers = try manager.bridge.resolve(NumberFactService.self)
        #expect(numbers.history().count == 10_000)
        _ = numbers.fact(about: 28)
        #expect(notices.items.isEmpty, "\(notices.items)")

        let reread = FactHistoryStore(directory: folder).load()
        #expect(reread.warning == nil)
        #expect(reread.contents.users["bob"]?.count == 10_000)
        #expect(reread.contents.users["alice"]?.count == 10_000)
        #expect(reread.contents.users["alice"]?.last?.fact.number == 28)
    }

    /// The worst case: more users than the guaranteed full histories, each at the largest limit, every entry as
    /// long as the bound allows. What is written is always what the reader accepts; the current user loses nothing.
    @Test func theWorstCaseIsWrittenWithinWhatTheReaderAccepts() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let limit = NumbersConfiguration.historyLimitRange.upperBound
        let longest = String(repeating: "9", count: FactHistoryStore.maximumContentLength)
        var contents = FactHistoryStore.Contents()
        for (offset, user) in ["u1", "u2", "u3"].enumerated() {
            contents.users[user] = entries(limit, content: { _ in longest }, from: 1_700_000_000 + Double(offset) * 100_000)
        }
        let store = FactHistoryStore(directory: folder)
        let fitted = try store.encodeFitting(contents, keeping: "u1")
        #expect(fitted.data.count <= FactHistoryStore.maximumFileSize)
        #expect(fitted.dropped > 0)
        #expect(fitted.contents.users["u1"] == contents.users["u1"])
        // u2's entries are older than u3's, so they go first; what is kept of each is its newest.
        let kept = (u2: fitted.contents.users["u2"] ?? [], u3: fitted.contents.users["u3"] ?? [])
        #expect(kept.u2.count < kept.u3.count)
        #expect(kept.u3.last == contents.users["u3"]?.last && (kept.u2.isEmpty || kept.u2.last == contents.users["u2"]?.last))
        try store.write(fitted.data)
        let loaded = store.load()
        #expect(loaded.warning == nil && loaded.writable)
        #expect(loaded.contents.entryCount == fitted.contents.entryCount)
        #expect(loaded.contents.users["u1"]?.count == limit)
    }

    @Test func theFileBoundHoldsTwoFullHistoriesOfTheLongestEntries() throws {
        let longestKind = NumberFact.Kind.allCases.map(\.rawValue.utf8.count).max() ?? 0
        #expect(FactHistoryStore.maximumEntrySize > FactHistoryStore.maximumContentLength + longestKind + 20)
        #expect(FactHistoryStore.maximumFileSize
                >= FactHistoryStore.fullHistories * NumbersConfiguration.historyLimitRange.upperBound * FactHistoryStore.maximumEntrySize)
        #expect(FactHistoryStore.fullHistories >= 2)
    }

    /// The engine's longest facts (long divisor lists, 64-digit binary, the Collatz overflow, extremes) fit the
    /// content length the bound is derived from.
    @Test func theEnginesLongestFactsFitTheEntryBound() {
        let engine = NumberFactEngine(primeTable: PrimeTable())
        var candidates: [Int64] = [.min, .max, .min + 1, -1, 0, 1, 2_305_843_008_139_952_128, 614_889_782_588_491_410,
                                   -614_889_782_588_491_410, 9_007_199_254_740_992, 4_611_686_018_427_387_904,
                                   7_999_999_999_999_999_999, 3_999, -9_223_372_036_854_775_807]
        // Numbers with at most 24 divisors list them all: products of large primes and small prime powers.
        for prime: Int64 in [1_000_000_007, 2_147_483_647, 4_294_967_291] {
            for cofactor: Int64 in [2, 4, 6, 8, 12, 30, 210, 1_000_000_007] where prime.multipliedReportingOverflow(by: cofactor).overflow == false {
                candidates.append(prime * cofactor)
            }
        }
        var generator = SplitMix64(seed: 13)
        for _ in 0..<500 { candidates.append(Int64(bitPattern: generator.next())) }
        let longest = candidates.flatMap { engine.facts(about: $0) }.map(\.content.utf8.count).max() ?? 0
        #expect(longest > 200)
        #expect(longest <= FactHistoryStore.maximumContentLength)
    }

    @Test func aFullFileDropsOtherUsersOldestEntriesAndSaysSo() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try writeHistory(["bob": entries(20) { "fact \($0)" }])
        let notices = NoticeLog<String>()
        let desk = FactDesk()
        let store = FactHistoryStore(directory: folder, maximumFileSize: 4_000)
        desk.configure(NumbersConfiguration(historyLimit: 10_000), store: store) { notices.append($0) }
        desk.setCurrentUser("alice")
        for number in 1...15 { _ = desk.fact(about: Int64(number)) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: historyFile.path)[.size] as? NSNumber).intValue
        #expect(size <= 4_000)
        let loaded = store.load()
        #expect(loaded.warning == nil)
        #expect(loaded.contents.users["alice"]?.map(\.fact.number) == Array(1...15))
        let bobs = try #require(loaded.contents.users["bob"])
        #expect(bobs.count < 20 && bobs.last?.fact.content == "fact 19")
        #expect(notices.items.contains { $0.contains("oldest entries") && $0.contains("4000 bytes") })
    }

    @Test func aCorruptedHistoryIsMovedAsideAndReportedNotOverwritten() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = Data(#"{"format": "modulehost.numbers-history", "version": 1, "users": {"alice": [1, 2"#.utf8)
        try original.write(to: historyFile)
        let notices = NoticeLog<String>()
        let manager = try manager(user: "alice", notices: notices)
        _ = try await manager.initiator.start()
        _ = try manager.bridge.resolve(NumberFactService.self).fact(about: 6)

        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let aside = try #require(names.first { $0.hasPrefix("numbers-history.json.unreadable-") })
        #expect(try Data(contentsOf: folder.appendingPathComponent(aside)) == original)
        #expect(notices.items.contains { $0.contains(folder.appendingPathComponent(aside).path) })
        #expect(FactHistoryStore(directory: folder).load().contents.users["alice"]?.map(\.fact.number) == [6])
    }

    @Test func anOversizedHistoryIsMovedAsideNotOverwritten() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = Data(repeating: UInt8(ascii: " "), count: 5_000)
        try original.write(to: historyFile)
        let notices = NoticeLog<String>()
        let desk = FactDesk()
        desk.configure(NumbersConfiguration(), store: FactHistoryStore(directory: folder, maximumFileSize: 4_000)) { notices.append($0) }
        _ = desk.fact(about: 6)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let aside = try #require(names.first { $0.hasPrefix("numbers-history.json.unreadable-") })
        #expect(try Data(contentsOf: folder.appendingPathComponent(aside)) == original)
        #expect(notices.items.contains { $0.contains("larger than 4000 bytes") && $0.contains(aside) })
    }

    @Test func aHistoryThatCannotBeMovedAsideIsNeverWritten() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = Data("[1, 2".utf8)
        try original.write(to: historyFile)
        let notices = NoticeLog<String>()
        let desk = FactDesk()
        let store = FactHistoryStore(directory: folder, moveAside: { _, _ in "injected failure" })
        desk.configure(NumbersConfiguration(), store: store) { notices.append($0) }
        _ = desk.fact(about: 6)
        _ = desk.fact(about: 7)
        #expect(try Data(contentsOf: historyFile) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["numbers-history.json"])
        #expect(notices.items.count == 1)
        #expect(notices.items.first?.contains("injected failure") == true)
        #expect(notices.items.first?.contains("left untouched") == true)
        #expect(desk.history().map(\.fact.number) == [6, 7])
    }

    @Test func asideNamesAreUTCTimestamps() {
        #expect(FactHistoryStore.timestamp(Date(timeIntervalSince1970: 1_735_787_045)) == "20250102T030405Z")
    }

    @Test func historyIsPrintedWithControlCharactersEscaped() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let hostile = "7 is prime.\u{1b}]0;owned\u{07}\u{1b}[2J\r\nerror: fake line \u{202e}"
        _ = try writeHistory(["mallory\u{1b}[31m": entries(1) { _ in hostile }])
        let manager = try manager(user: "mallory\u{1b}[31m", notices: NoticeLog<String>())
        _ = try await manager.initiator.start()
        let output = try await NumbersCommands.history(ModuleCommand.Context(arguments: [], manager: manager, io: SilentIO()))
        #expect(!output.text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F || $0.value > 0x7E }, "\(output.text)")
        #expect(output.text.contains(#"7 is prime.\u{1b}]0;owned\u{7}\u{1b}[2J\u{d}\u{a}error: fake line \u{202e}"#))
        #expect(output.text.hasPrefix(#"History (mallory\u{1b}[31m):"#))
        #expect(NumbersCommands.historyText(entries(1) { _ in "28 is a perfect number: it equals 1 + 2 + 4 + 7 + 14." }, owner: nil)
                == "History (anonymous):\n  1. 28 is a perfect number: it equals 1 + 2 + 4 + 7 + 14.")
    }
}

private struct SilentIO: ModuleCommand.IO {
    func readLine(prompt: String) async -> String? { nil }
    func readSecret(prompt: String) async -> String? { nil }
    func write(_ line: String) {}
    var isInteractive: Bool { false }
}
