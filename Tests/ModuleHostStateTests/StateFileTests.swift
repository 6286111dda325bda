import Foundation
import Testing
import TestSupport
@testable import ModuleHostState
import ModuleHost

@Suite("State files")
struct StateFileTests {
    @Test func writesAtomicallyWithOwnerOnlyPermissions() throws {
        let directory = try TemporaryDirectory()
        let file = StateFile(url: directory.url.appendingPathComponent("state/data.json"))
        #expect(try file.read() == nil)
        try file.write(Data("one".utf8))
        try file.write(Data("two".utf8))
        #expect(try file.read() == Data("two".utf8))
        let fileMode = try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions] as? NSNumber
        let directoryMode = try FileManager.default.attributesOfItem(atPath: directory.url.appendingPathComponent("state").path)[.posixPermissions] as? NSNumber
        #expect(fileMode?.intValue == 0o600)
        #expect(directoryMode?.intValue == 0o700)
        // No temporary files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.appendingPathComponent("state").path) == ["data.json"])
    }

    @Test func anInterruptedWriteLeavesTheOldFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("data.json")
        try StateFile(url: url).write(Data("old".utf8))
        // The temporary file is written and synced; only putting it in place fails.
        let failing = StateFile(url: url, maximumSize: 1 << 20) { _, _ in
            errno = EIO
            return false
        }
        let error = try #require(throws: StateFileError.self) { try failing.write(Data("new".utf8)) }
        #expect(error.code == .writeFailed)
        #expect(try StateFile(url: url).read() == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["data.json"])
    }

    @Test func readsAreBounded() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("big.json")
        try Data(repeating: 0x20, count: 5000).write(to: url)
        let error = try #require(throws: StateFileError.self) { try StateFile(url: url, maximumSize: 4096).read() }
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("larger than 4096 bytes"))
    }

    @Test func aFileWhereTheDirectoryShouldBeIsReported() throws {
        let directory = try TemporaryDirectory()
        let blocker = try directory.write("x", to: "state")
        let error = try #require(throws: StateFileError.self) {
            try StateFile(url: blocker.appendingPathComponent("data.json")).write(Data())
        }
        #expect(error.code == .directoryUnavailable)
        #expect(error.message.contains("is not a directory"))
    }

    @Test func removeIsIdempotent() throws {
        let directory = try TemporaryDirectory()
        let file = StateFile(url: directory.url.appendingPathComponent("data.json"))
        try file.write(Data("x".utf8))
        try file.remove()
        try file.remove()
        #expect(try file.read() == nil)
    }
}
