import NumbersInterface
import Foundation
import ModuleHost

/// The per-user fact histories, persisted as `numbers-history.json` in the state directory.
struct FactHistoryStore: Sendable {
    static let fileName = "numbers-history.json"
    static let format = "modulehost.numbers-history"

    /// The file's layout; `anonymous` use is stored under the empty user name.
    struct Contents: Codable, Sendable, Equatable {
        var format: String = FactHistoryStore.format
        var version: Int = 1
        var users: [String: [NumberFactHistoryEntry]] = [:]
    }

    let file: StateFile

    init(directory: URL) {
        file = StateFile(url: directory.appendingPathComponent(Self.fileName), maximumSize: 4 << 20)
    }

    /// The stored histories; a missing file is empty, a corrupted or foreign one is reported and ignored.
    func load() -> (contents: Contents, warning: String?) {
        let data: Data?
        do {
            data = try file.read()
        } catch {
            return (Contents(), "history not restored: \(error.message)")
        }
        guard let data else { return (Contents(), nil) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let contents = try? decoder.decode(Contents.self, from: data),
              contents.format == Self.format, contents.version == 1 else {
            return (Contents(), "history file \(file.url.path) is not a version 1 NumbersModule history; starting with an empty history")
        }
        return (contents, nil)
    }

    func save(_ contents: Contents) throws(StateFileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        guard let data = try? encoder.encode(contents) else {
            throw StateFileError(.writeFailed, path: file.url.path, message: "cannot encode the history")
        }
        try file.write(data)
    }
}
