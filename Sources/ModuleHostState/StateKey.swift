#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ModuleHost

/// A secret key kept in a state directory: 32 random bytes from the system (getrandom(2) through
/// `SystemRandomNumberGenerator`), in a file of mode 0600 created once and never replaced, read only if owned
/// by the effective user and closed to everyone else. It is never printed; its description is redacted.
///
/// A module signs what it stores with it, so that a file it reads back was written by someone who can read the
/// key: the owner of the state directory, not another local user who could only write a file beside it.
package struct StateKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package static let byteCount = 32

    /// The key's bytes; for MACs only.
    package let bytes: [UInt8]

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The key in `file` (which is read as a secret); `nil` when there is none yet.
    package static func load(from file: StateFile) throws(StateFileError) -> StateKey? {
        guard let data = try secret(file).read() else { return nil }
        guard data.count == byteCount else {
            throw StateFileError(.unreadable, path: file.url.path,
                                 message: "\(file.url.path) is not a key of \(byteCount) bytes; refusing to use it")
        }
        return StateKey(bytes: Array(data))
    }

    /// The key in `file`, created if there is none. Two processes creating it at once agree on one key: the
    /// file is put in place with link(2), so the second finds the first's.
    package static func loadOrCreate(from file: StateFile) throws(StateFileError) -> StateKey {
        if let key = try load(from: file) { return key }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let creator = StateFile(url: file.url, maximumSize: byteCount, isSecret: true, hostDirectory: file.hostDirectory,
                                replace: StateFile.linkOnce, notice: file.notice)
        do {
            try creator.write(Data(bytes))
            return StateKey(bytes: bytes)
        } catch {
            // Someone else created it meanwhile: use theirs (it is checked like any other).
            if let key = try load(from: file) { return key }
            throw error
        }
    }

    private static func secret(_ file: StateFile) -> StateFile {
        file.isSecret ? file : StateFile(url: file.url, maximumSize: byteCount, isSecret: true, hostDirectory: file.hostDirectory,
                                         replace: StateFile.linkOnce, notice: file.notice)
    }

    package var description: String { "StateKey(<redacted>)" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
