import NumbersInterface
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
import ModuleHostState
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The per-user fact histories, persisted as `numbers-history.json` in the module's folder of the host's state folder
/// (`<state>/com.modulehost.numbers`), or in the folder the configuration names.
///
/// Writer and reader agree on one bound, ``maximumFileSize``: it holds ``fullHistories`` histories at the largest
/// ``NumbersConfiguration/historyLimitRange`` of the longest entries, and ``encodeFitting(_:keeping:)`` never
/// produces more (it drops other users' oldest entries first). A file that cannot be used is never overwritten:
/// ``load()`` moves it aside and says where, or, if that fails too, the history is not saved.
struct FactHistoryStore: Sendable {
    static let fileName = "numbers-history.json"
    static let format = "modulehost.numbers-history"

    /// The longest fact the engine writes is well under this many UTF-8 bytes (`NumbersStoreLimitTests` checks
    /// the longest kinds of fact); it sizes ``maximumEntrySize``.
    static let maximumContentLength = 1024
    /// How many users' histories at the largest limit, of the longest entries, always fit in the file.
    static let fullHistories = 2

    /// An upper bound on the encoded size of one entry: the longest content, the longest kind, `Int64.min`, a
    /// date of the widest form, and the comma between entries.
    static let maximumEntrySize: Int = {
        let longestKind = NumberFact.Kind.allCases.map(\.rawValue).max { $0.utf8.count < $1.utf8.count } ?? ""
        let entry = NumberFactHistoryEntry(
            fact: NumberFact(number: .min, content: String(repeating: "x", count: maximumContentLength),
                             kind: NumberFact.Kind(rawValue: longestKind) ?? .collatz),
            lookedUpAt: Date(timeIntervalSince1970: -1_234_567_890.123_456_7)
        )
        let size = (try? encoder().encode(entry).count) ?? 2 * maximumContentLength
        return size + 32
    }()

    /// The largest history file written or read: ``fullHistories`` full histories of the longest entries, plus
    /// room for user names and the header.
    static let maximumFileSize = fullHistories * NumbersConfiguration.historyLimitRange.upperBound * maximumEntrySize + (64 << 10)

    /// Moves the file at the first path to the second, failing if the second exists; `nil` on success, else why not.
    typealias MoveAside = @Sendable (_ from: String, _ to: String) -> String?

    /// rename(2), refusing an existing destination; the reason is the system's, in words.
    static let moveItem: MoveAside = { from, to in
        var status = stat()
        guard lstat(to, &status) != 0 else { return "\(to) already exists" }
        guard rename(from, to) == 0 else { return String(cString: strerror(errno)) }
        return nil
    }

    /// The file's layout; `anonymous` use is stored under the empty user name.
    struct Contents: Codable, Sendable, Equatable {
        var format: String = FactHistoryStore.format
        var version: Int = 1
        var users: [String: [NumberFactHistoryEntry]] = [:]

        var entryCount: Int { users.values.reduce(0) { $0 + $1.count } }
    }

    /// What ``load()`` found.
    struct Loaded: Sendable {
        var contents = Contents()
        /// What to tell the user (an unusable file, and where it went).
        var warning: String?
        /// Whether the file may be written: `false` when an unusable file could not be moved aside.
        var writable = true
    }

    let file: StateFile
    let maximumFileSize: Int
    private let moveAside: MoveAside
    private let now: @Sendable () -> Date

    /// The history in `directory`; `hostDirectory` is the host's state folder when `directory` is the module's
    /// folder inside it, where earlier versions kept the history (it is read from there and moved; see
    /// `StateFile.read()`). `owner`: the module instance's context, after whose release the file refuses. `notice`
    /// hears what the file reports of its folders (one readable by others, used as it is).
    init(directory: URL, hostDirectory: URL? = nil, owner: (any ModuleContext)? = nil,
         maximumFileSize: Int = FactHistoryStore.maximumFileSize,
         moveAside: @escaping MoveAside = FactHistoryStore.moveItem, now: @escaping @Sendable () -> Date = { Date() },
         notice: @escaping @Sendable (String) -> Void = { _ in }) {
        file = StateFile(url: directory.appendingPathComponent(Self.fileName), maximumSize: maximumFileSize,
                         hostDirectory: hostDirectory, owner: owner, replace: StateFile.rename, notice: notice)
        self.maximumFileSize = maximumFileSize
        self.moveAside = moveAside
        self.now = now
    }

    /// The stored histories; a missing file is empty. A file that cannot be read or is not a version 1 history is
    /// moved aside (`numbers-history.json.unreadable-<UTC time>`) and reported; if it cannot be moved, it is left
    /// as it is and the history is not saved.
    func load() -> Loaded {
        let data: Data?
        do {
            data = try file.read()
        } catch where error.code == .directoryUnavailable {
            // The folder, not the file, is the problem: there is nothing to move aside, and nothing may be written.
            return Loaded(warning: "history not restored and not saved: \(error.message)", writable: false)
        } catch {
            return setAside(because: error.message)
        }
        guard let data else { return Loaded() }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let contents = try? decoder.decode(Contents.self, from: data),
              contents.format == Self.format, contents.version == 1 else {
            return setAside(because: "\(file.url.path) is not a version 1 NumbersModule history")
        }
        return Loaded(contents: contents)
    }

    private func setAside(because reason: String) -> Loaded {
        let path = file.url.path
        var failure = "no attempt"
        for attempt in 0..<100 {
            let stamp = Self.timestamp(now())
            let target = "\(path).unreadable-\(stamp)\(attempt == 0 ? "" : "-\(attempt)")"
            guard let why = moveAside(path, target) else {
                return Loaded(warning: "history not restored: \(reason); the file was moved to \(target) and a new history is started")
            }
            failure = why
            guard FileManager.default.fileExists(atPath: target) else { break }
        }
        return Loaded(
            warning: "history not restored: \(reason); it could not be moved aside (\(failure)), so it is left untouched and the history is not saved",
            writable: false
        )
    }

    /// `20250102T030405Z`.
    static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(dateSeparator: .omitted, dateTimeSeparator: .standard, timeSeparator: .omitted,
                                timeZoneSeparator: .omitted, includingFractionalSeconds: false, timeZone: .gmt).format(date)
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    /// `contents` encoded within ``maximumFileSize``: when it is larger, the oldest entries of users other than
    /// `user` are dropped first (then `user`'s own oldest, never its newest) until it is at most 15/16 of the
    /// bound, so that the next saves do not drop again at once. Returns what was kept and how many were dropped.
    func encodeFitting(_ contents: Contents, keeping user: String) throws(StateFileError) -> (data: Data, contents: Contents, dropped: Int) {
        var contents = contents
        var dropped = 0
        let target = maximumFileSize - maximumFileSize / 16
        while true {
            let data: Data
            do {
                data = try Self.encoder().encode(contents)
            } catch {
                throw StateFileError(.writeFailed, path: file.url.path, message: "cannot encode the history")
            }
            if data.count <= (dropped == 0 ? maximumFileSize : target) { return (data, contents, dropped) }
            let average = max(1, data.count / max(1, contents.entryCount))
            let wanted = max(1, (data.count - target + average - 1) / average)
            let removed = Self.dropOldest(wanted, from: &contents, keeping: user)
            guard removed > 0 else {
                throw StateFileError(.tooLarge, path: file.url.path,
                                     message: "the history does not fit in \(maximumFileSize) bytes, the limit for \(file.url.path)")
            }
            dropped += removed
        }
    }

    /// Removes up to `count` entries, oldest first among users other than `user`, then `user`'s oldest but
    /// its last; returns how many it removed.
    private static func dropOldest(_ count: Int, from contents: inout Contents, keeping user: String) -> Int {
        var others = contents.users.filter { $0.key != user }
            .flatMap { name, entries in entries.indices.map { (name: name, index: $0, date: entries[$0].lookedUpAt) } }
        others.sort { $0.date < $1.date }
        var removals: [String: Set<Int>] = [:]
        for item in others.prefix(count) { removals[item.name, default: []].insert(item.index) }
        var removed = min(count, others.count)
        for (name, indices) in removals {
            let kept = (contents.users[name] ?? []).enumerated().filter { !indices.contains($0.offset) }.map(\.element)
            contents.users[name] = kept.isEmpty ? nil : kept
        }
        if removed < count, var own = contents.users[user], own.count > 1 {
            let more = min(count - removed, own.count - 1)
            own.removeFirst(more)
            contents.users[user] = own
            removed += more
        }
        return removed
    }

    /// Writes `data` (from ``encodeFitting(_:keeping:)``).
    func write(_ data: Data) throws(StateFileError) {
        try file.write(data)
    }
}
