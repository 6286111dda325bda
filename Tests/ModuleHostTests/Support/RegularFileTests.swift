import Foundation
import Testing
@testable import ModuleHost

/// A file is read in one pass when it has the size it had when checked, and still read whole, and still bounded,
/// when it changes between the check and the read (the check hook changes it, at exactly that moment).
struct RegularFileTests {
    /// A scratch file holding `bytes`, removed when `body` returns.
    private func withFile<T>(_ bytes: [UInt8], _ body: (String) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("regular-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    private func append(_ bytes: [UInt8], to path: String) {
        guard let handle = FileHandle(forWritingAtPath: path) else { return }
        handle.seekToEndOfFile()
        handle.write(Data(bytes))
        try? handle.close()
    }

    private func read(_ path: String, limit: Int, change: (String) -> Void = { _ in }) -> Result<[UInt8], RegularFile.Failure> {
        RegularFile.read(atPath: path, limit: limit) { _ in change(path) }
    }

    /// How `result` differs from reading `expected`, or `nil`: a short message, never the bytes themselves.
    private func mismatch(_ result: Result<[UInt8], RegularFile.Failure>, _ expected: [UInt8]) -> String? {
        switch result {
        case .failure(let failure): "failed: \(failure)"
        case .success(let bytes) where bytes != expected: "read \(bytes.count) bytes, expected \(expected.count) (or other bytes)"
        case .success: nil
        }
    }

    @Test func aFileOfTheCheckedSizeIsReadWhole() throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let result = try withFile(bytes) { read($0, limit: 1 << 20) }
        #expect(mismatch(result, bytes) == nil)
        #expect(try withFile([]) { read($0, limit: 10) } == .success([]))
    }

    @Test func aFileThatGrewAfterTheCheckIsReadToItsEnd() throws {
        let first = [UInt8](repeating: 7, count: 1_000), added = [UInt8](repeating: 9, count: 150_000)
        let result = try withFile(first) { read($0, limit: 1 << 20) { append(added, to: $0) } }
        #expect(mismatch(result, first + added) == nil)
    }

    @Test func aFileThatGrewPastTheLimitAfterTheCheckIsRefused() throws {
        let first = [UInt8](repeating: 1, count: 500)
        // Within the limit when checked, over it when read: refused as too large, with no size known beforehand.
        #expect(try withFile(first) { read($0, limit: 600) { append([UInt8](repeating: 2, count: 101), to: $0) } }
                == .failure(.tooLarge(nil)))
        // Exactly at the limit when read: still read.
        let atLimit = try withFile(first) { read($0, limit: 600) { append([UInt8](repeating: 2, count: 100), to: $0) } }
        #expect(mismatch(atLimit, first + [UInt8](repeating: 2, count: 100)) == nil)
        // A file at the limit when checked that grew by one byte.
        #expect(try withFile(first) { read($0, limit: 500) { append([3], to: $0) } } == .failure(.tooLarge(nil)))
    }

    @Test func aFileThatShrankAfterTheCheckIsReadAsItIsNow() throws {
        let bytes = [UInt8](repeating: 5, count: 4_096)
        let result = try withFile(bytes) { read($0, limit: 1 << 20) { truncate($0, 10) } }
        #expect(result == .success([UInt8](repeating: 5, count: 10)))
    }
}
