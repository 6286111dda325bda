import AuthInterface
import Foundation
import Testing

@testable import AuthModule

/// `usersFile` is checked before it is read: its size (a huge file is not read whole)
/// and its kind (a FIFO is refused without blocking).
@Suite("AuthModule: the users file is checked before reading")
struct UsersFileLimitTests {
    private func resolve(usersFile: String, in directory: TemporaryDirectory) throws(AuthError) -> ResolvedAuthConfiguration {
        try AuthConfiguration(usersFile: usersFile).resolve(baseDirectory: directory.url, workingDirectory: directory.url)
    }

    @Test func anOversizedUsersFileIsRefusedBeforeReading() throws {
        try withTemporaryDirectoryNonAsync { directory in
            let url = directory.url.appendingPathComponent("users.json")
            // Sparse: 1 GiB that takes no disk space; reading it whole would take a gigabyte of memory.
            #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: 1 << 30)
            try handle.close()
            let error = try #require(throws: AuthError.self) { try resolve(usersFile: "users.json", in: directory) }
            #expect(error.message.contains("is larger than \(AuthConfiguration.maximumUsersFileSize) bytes"), "\(error.message)")
        }
    }

    @Test func aFIFOAsUsersFileIsRefusedWithoutBlocking() throws {
        try withTemporaryDirectoryNonAsync { directory in
            let url = directory.url.appendingPathComponent("users.json")
            #expect(mkfifo(url.path, 0o600) == 0)
            // A writer that keeps the FIFO open, so that the old code's read would wait for ever rather than see EOF;
            // O_RDWR opens without blocking on Linux.
            let writer = open(url.path, O_RDWR | O_NONBLOCK)
            defer { close(writer) }
            let error = try #require(throws: AuthError.self) { try resolve(usersFile: "users.json", in: directory) }
            #expect(error.message.contains("is a FIFO, not a regular file"), "\(error.message)")
        }
    }
}
