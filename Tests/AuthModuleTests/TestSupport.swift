import AuthInterface
import ModuleHost
import ModuleHostState
import Foundation
import Testing

@testable import AuthModule

/// Cheap hashes (yescrypt cost 1) made once per test process.
enum Fixtures {
    static let alicePassword = "wonderland"
    static let bobPassword = "builder"
    static let aliceHash = cheapHash(alicePassword)
    static let bobHash = cheapHash(bobPassword)

    static func cheapHash(_ password: String) -> String {
        do {
            return try PasswordHasher.hash(password, scheme: .yescrypt(cost: 1))
        } catch {
            fatalError("cannot hash a test password: \(error)")
        }
    }

    static var users: [AuthConfiguration.UserRecord] {
        [
            .init(username: "alice", displayName: "Alice Liddell", passwordHash: aliceHash),
            .init(username: "bob", passwordHash: bobHash),
        ]
    }
}

/// A fresh directory under the temporary directory; removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("AuthModuleTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var stateDirectory: URL { url.appendingPathComponent("state", isDirectory: true) }
    var sessionFile: URL { stateDirectory.appendingPathComponent("session.json") }

    /// Creates the state directory as the module would: mode 0700 (an existing wider one is used as it is, with a
    /// notice).
    func createStateDirectory() throws {
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        _ = chmod(stateDirectory.path, 0o700)
    }

    func remove() {
        // Restore permissions changed by tests so the tree can be deleted.
        _ = chmod(stateDirectory.path, 0o700)
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs `body` with a temporary directory that is removed afterwards.
func withTemporaryDirectory<T>(_ body: (TemporaryDirectory) async throws -> T) async throws -> T {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return try await body(directory)
}

/// A clock the test moves by hand.
final class FakeClock: Sendable {
    private let current: Locked<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Locked(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }

    var provider: @Sendable () -> Date {
        { [self] in now }
    }
}

/// Records what the session hook is told.
final class ChangeRecorder: Sendable {
    private let changes = Locked<[SessionChange]>([])

    var recorded: [SessionChange] { changes.withLock { $0 } }

    var hook: @Sendable (SessionChange) -> Void {
        { [self] change in changes.withLock { $0.append(change) } }
    }
}

func makeConfiguration(
    in directory: TemporaryDirectory,
    users: [AuthConfiguration.UserRecord] = Fixtures.users,
    lifetime: Double = 3600
) -> AuthConfiguration {
    AuthConfiguration(users: users, stateDirectory: directory.stateDirectory.path, sessionLifetime: lifetime)
}

func makeAuthenticator(
    in directory: TemporaryDirectory,
    users: [AuthConfiguration.UserRecord] = Fixtures.users,
    lifetime: Double = 3600,
    clock: FakeClock = FakeClock(),
    recorder: ChangeRecorder? = nil,
    replaceSessionFile: @escaping StateFile.Replace = StateFile.rename,
    streams: StateStreams = StateStreams()
) throws -> Authenticator {
    let resolved = try makeConfiguration(in: directory, users: users, lifetime: lifetime)
        .resolve(baseDirectory: directory.url, workingDirectory: directory.url)
    var hook: @Sendable (SessionChange) -> Void = { _ in }
    if let recorder { hook = recorder.hook }
    return Authenticator(
        configuration: resolved,
        store: SessionStore(directory: resolved.stateDirectory, replace: replaceSessionFile),
        streams: streams,
        now: clock.provider,
        onSessionChange: hook
    )
}

/// A last write step that fails after the temporary file is written and synced, before it replaces the target.
let failingReplace: StateFile.Replace = { _, _ in
    errno = EIO
    return false
}

/// Waits (briefly) until `condition` holds.
func eventually(_ condition: () -> Bool, timeout: Duration = .seconds(5)) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// Everything the various reflection APIs print for `value`.
func allRenderings(of value: Any) -> String {
    var dumped = ""
    dump(value, to: &dumped)
    return [String(describing: value), String(reflecting: value), dumped].joined(separator: "\n")
}
