import Foundation
import Testing
import TestSupport
@testable import ModuleHostState
import ModuleHost

#if canImport(Glibc)
import Glibc
#endif

/// A state file is trusted only if it is a regular file owned by the effective user in
/// a state directory of the user's own, closed to other writers; a FIFO, device or socket is refused without
/// blocking. Ownership is a uid comparison, so running as root does not bypass it; where a file must belong to
/// another user, the test gives it to `nobody` (root may chown).
@Suite("State files: trust")
struct StateFileTrustTests {
    private static let nobody: uid_t = 65534

    private func notices() -> (Locked<[String]>, @Sendable (String) -> Void) {
        let log = Locked<[String]>([])
        return (log, { message in log.withLock { $0.append(message) } })
    }

    /// Runs `body` on a thread of its own and fails (instead of hanging the suite) if it has not returned within
    /// `seconds`: the old code blocked forever opening a FIFO.
    private func withinSeconds<T: Sendable>(_ seconds: Int, _ body: @escaping @Sendable () -> T) -> T? {
        let result = Locked<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
        return result.withLock { $0 }
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let directory = try TemporaryDirectory()
        let state = directory.url.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let fifo = state.appendingPathComponent("session.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let file = StateFile(url: fifo)
        let outcome = withinSeconds(20) { () -> String in
            do throws(StateFileError) {
                let data = try file.read()
                return "read \(data?.count ?? -1) bytes"
            } catch {
                return error.message
            }
        }
        let message: String = try #require(outcome, "reading a FIFO blocked")
        #expect(message.contains("is a FIFO, not a regular file"), "\(message)")
    }

    @Test func aDeviceAndASocketAreRefused() throws {
        let directory = try TemporaryDirectory()
        let device = directory.url.appendingPathComponent("history.json")
        // /dev/zero's numbers (1, 5); reading it would give zeros up to the size limit.
        guard mknod(device.path, S_IFCHR | 0o600, dev_t(1 << 8 | 5)) == 0 else {
            Issue.record("mknod failed (errno \(errno)); this test needs CAP_MKNOD, which CI's root has")
            return
        }
        let deviceError = try #require(throws: StateFileError.self) { try StateFile(url: device).read() }
        #expect(deviceError.message.contains("is a device, not a regular file"))

        let socketURL = directory.url.appendingPathComponent("s.json")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            let bytes = Array(socketURL.path.utf8.prefix(buffer.count - 1))
            buffer.copyBytes(from: bytes)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        let socketError = try #require(throws: StateFileError.self) { try StateFile(url: socketURL).read() }
        #expect(socketError.message.contains("is a socket, not a regular file"))
    }

    @Test func aStateDirectoryThatIsASymbolicLinkIsRefused() throws {
        let directory = try TemporaryDirectory()
        let real = directory.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data("{}".utf8).write(to: real.appendingPathComponent("session.json"))
        let link = directory.url.appendingPathComponent(".app-shell")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let file = StateFile(url: link.appendingPathComponent("session.json"))
        let readError = try #require(throws: StateFileError.self) { try file.read() }
        #expect(readError.message.contains("is a symbolic link; refusing to use it"))
        let writeError = try #require(throws: StateFileError.self) { try file.write(Data("x".utf8)) }
        #expect(writeError.code == .directoryUnavailable)
    }

    // Without root the test cannot give a directory away; CI runs as root.
    @Test(.enabled(if: geteuid() == 0, "giving a folder to another user needs root"))
    func aStateDirectoryOwnedByAnotherUserIsRefused() throws {
        let directory = try TemporaryDirectory()
        let state = directory.url.appendingPathComponent(".app-shell")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let forged = state.appendingPathComponent("session.json")
        try Data("{}".utf8).write(to: forged)
        #expect(chown(state.path, Self.nobody, gid_t(Self.nobody)) == 0)
        #expect(chown(forged.path, Self.nobody, gid_t(Self.nobody)) == 0)
        let file = StateFile(url: forged)
        let readError = try #require(throws: StateFileError.self) { try file.read() }
        #expect(readError.message.contains("is owned by another user (uid 65534)"), "\(readError.message)")
        #expect(throws: StateFileError.self) { try file.write(Data("x".utf8)) }
        #expect(try Data(contentsOf: forged) == Data("{}".utf8), "nothing in someone else's directory is replaced")
    }

    @Test func aStateFileWritableByOthersIsRefused() throws {
        let directory = try TemporaryDirectory()
        let state = directory.url.appendingPathComponent("state")
        let file = StateFile(url: state.appendingPathComponent("data.json"))
        try file.write(Data("mine".utf8))
        #expect(chmod(file.url.path, 0o666) == 0)
        let writable = try #require(throws: StateFileError.self) { try file.read() }
        #expect(writable.message.contains("is writable by other users (mode 0666)"))
        #expect(chmod(file.url.path, 0o600) == 0)
        #expect(try file.read() == Data("mine".utf8))
    }

    // Giving the file away needs root; CI runs as root.
    @Test(.enabled(if: geteuid() == 0, "giving a file to another user needs root"))
    func aStateFileOwnedByAnotherUserIsRefused() throws {
        let directory = try TemporaryDirectory()
        let file = StateFile(url: directory.url.appendingPathComponent("state").appendingPathComponent("data.json"))
        try file.write(Data("mine".utf8))
        #expect(chown(file.url.path, Self.nobody, gid_t(Self.nobody)) == 0)
        let foreign = try #require(throws: StateFileError.self) { try file.read() }
        #expect(foreign.message.contains("is owned by another user"))
    }

    @Test func aSecretReadableByOthersIsRefused() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("state/session.key")
        let file = StateFile(url: url, maximumSize: StateKey.byteCount, isSecret: true, replace: StateFile.linkOnce)
        let key = try StateKey.loadOrCreate(from: file)
        #expect(try StateKey.loadOrCreate(from: file).bytes == key.bytes, "created once, then read back")
        #expect(key.bytes.count == 32)
        #expect("\(key)" == "StateKey(<redacted>)")
        #expect(chmod(url.path, 0o644) == 0)
        let error = try #require(throws: StateFileError.self) { try StateKey.load(from: file) }
        #expect(error.message.contains("is accessible by other users (mode 0644)"))
    }

    /// An existing folder readable by others (a home or project folder) keeps its mode: changing it would lock its
    /// other readers out. It is used as it is, and that is said.
    @Test func anExistingStateDirectoryReadableByOthersIsUsedAsItIsAndSaidSo() throws {
        let directory = try TemporaryDirectory()
        let state = directory.url.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        #expect(chmod(state.path, 0o755) == 0)
        let (log, report) = notices()
        let file = StateFile(url: state.appendingPathComponent("data.json"), maximumSize: 1024, replace: StateFile.rename, notice: report)
        #expect(try file.read() == nil)
        let mode = try FileManager.default.attributesOfItem(atPath: state.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o755, "the folder's mode was changed")
        #expect(log.withLock { $0 }.first?.hasPrefix("the state directory \(state.path) is readable by other users (mode 0755); it is used as it is") == true,
                "\(log.withLock { $0 })")
        try file.write(Data("x".utf8))
        #expect((try FileManager.default.attributesOfItem(atPath: state.path)[.posixPermissions] as? NSNumber)?.intValue == 0o755)
    }

    /// Pointing the state directory at a shared folder used to chmod it to 0700, silently,
    /// even for a read: `/tmp` went from 1777 to 700, locking every other user out. A shared folder is refused,
    /// for reads and writes alike, and its mode is left as it was.
    @Test(arguments: [0o1777, 0o2775, 0o777, 0o770, 0o3770])
    func aSharedFolderIsRefusedAndLeftAsItIs(mode: Int) throws {
        let directory = try TemporaryDirectory()
        let shared = directory.url.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        #expect(chmod(shared.path, mode_t(mode)) == 0)
        let (log, report) = notices()
        let file = StateFile(url: shared.appendingPathComponent("data.json"), maximumSize: 1024, replace: StateFile.rename, notice: report)
        let readError = try #require(throws: StateFileError.self) { try file.read() }
        #expect(readError.code == .directoryUnavailable)
        #expect(readError.message.contains("is shared (mode 0\(String(mode, radix: 8))"), "\(readError.message)")
        #expect(readError.message.contains("Choose a folder of your own"))
        let writeError = try #require(throws: StateFileError.self) { try file.write(Data("{}".utf8)) }
        #expect(writeError.code == .directoryUnavailable)
        var status = stat()
        #expect(stat(shared.path, &status) == 0)
        #expect(Int(status.st_mode & 0o7777) == mode, "the shared folder's mode changed")
        #expect(log.withLock { $0 }.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file.url.path))
    }
}

/// The one documented way for a module to keep a file, with the same safety as the
/// library's own state files, and repairs reported through the host.
@Suite("State files of modules")
struct ModuleStateFileTests {
    @Test func aModulesStateFileIsPrivateAtomicAndReportsRepairs() throws {
        let directory = try TemporaryDirectory()
        let state = directory.url.appendingPathComponent("state")
        let heard = Locked<[HostNotice]>([])
        let environment = HostEnvironment(stateDirectory: state, manifestDirectory: directory.url) { notice in
            heard.withLock { $0.append(notice) }
        }
        let file = try environment.stateFile("notes.json", of: "com.example.notes")
        #expect(try file.read() == nil)
        try file.write(Data("[\"a\"]".utf8))
        #expect(try file.read() == Data("[\"a\"]".utf8))
        var status = stat()
        #expect(stat(file.url.path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(stat(state.path, &status) == 0 && status.st_mode & 0o777 == 0o700)
        #expect(chmod(state.path, 0o755) == 0)
        _ = try file.read()
        #expect(heard.withLock { $0 }.map(\.module) == ["com.example.notes"])
        #expect(heard.withLock { $0 }.first?.message.contains("it is used as it is") == true)
        #expect(stat(state.path, &status) == 0 && status.st_mode & 0o777 == 0o755, "an existing folder keeps its mode")
        try FileManager.default.removeItem(at: file.url)
        try FileManager.default.createSymbolicLink(at: file.url, withDestinationURL: directory.url.appendingPathComponent("elsewhere"))
        #expect(throws: StateFileError.self) { try file.read() }
    }

    @Test(arguments: ["", ".", "..", "../escape.json", "a/b.json", "nul\u{0}.json"])
    func aNameThatIsNotOneFileNameIsRefused(name: String) throws {
        let environment = HostEnvironment(stateDirectory: URL(fileURLWithPath: "/tmp/x"), manifestDirectory: URL(fileURLWithPath: "/tmp"))
        let error = #expect(throws: StateFileError.self) { try environment.stateFile(name, of: "com.example.notes") }
        #expect(error?.code == .invalidName)
    }
}
