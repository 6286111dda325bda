import Foundation
import Synchronization
import ModuleHostSeed
import Testing

// The seed's README, as its users wrote it, with one line changed: `import ModuleHostSeed`. Swift 6 asks one more
// word of it: a module is Sendable, and only a `final class` may be. The README's `ModuleIdentifier.application`
// names an operation the seed's app declares; `ApplicationModule` below stands in for it.

extension ModuleIdentifier {
    static let auth: ModuleIdentifier = "com.klein.module.auth"
    static let application: ModuleIdentifier = "com.klein.module.application"
}

struct User: Sendable, Equatable {
    let name: String
}

protocol AuthServiceProtocol {
    func authenticate(completion: @escaping (User) -> ()) throws
}

final class AuthModule: ModuleProtocol, AuthServiceProtocol {
    static var moduleIdentifier: ModuleIdentifier {
        return .auth
    }
    required init() { }

    func moduleDidLoad(with manager: ModuleManager) {
        SeedCalls.shared.record("moduleDidLoad")
    }

    func authenticate(completion: @escaping (User) -> ()) throws {
        completion(User(name: "klein"))
    }
}

extension AuthModule: ModuleInitiatorProtocol {
    static var identifier: String { moduleIdentifier }
    static var priority: Initiator.Priority { .high }
    static var dependencies: [String] { [ModuleIdentifier.application] }
    static var operation: Initiator.Operation {
        return {
            SeedCalls.shared.record("operation")
        }
    }
}

/// The seed app's own start-up work, which the README's operation depends on. It calls the auth module as the
/// seed's example app does, through its own `moduleManager`.
final class ApplicationModule: ModuleProtocol, ModuleInitiatorProtocol {
    static var moduleIdentifier: ModuleIdentifier { .application }
    required init() { }
    static var identifier: String { moduleIdentifier }
    static var priority: Initiator.Priority { .high }
    static var operation: Initiator.Operation { { SeedCalls.shared.record("application") } }

    func startApplication() -> User? {
        guard let authModule = try? self.moduleManager?.bridge.resolve(.auth) as? AuthServiceProtocol else {
            return nil
        }
        var signedIn: User?
        try? authModule.authenticate(completion: { user in signedIn = user })
        return signedIn
    }
}

/// What the seed's code above did, in order: the seed's forms return nothing, so they report here.
final class SeedCalls: Sendable {
    static let shared = SeedCalls()
    private let calls = Mutex<[String]>([])
    func record(_ call: String) { calls.withLock { $0.append(call) } }
    var recorded: [String] { calls.withLock { $0 } }
}

@Suite("The seed's README")
struct SeedReadmeTests {
    /// The only test that touches the process's shared `ModuleManager.default` (and `SeedCalls.shared`), as the
    /// seed's app does: register at start, resolve by identifier, cast to the service, run the initiator.
    @Test func theSeedsReadmeRunsWithItsImportChanged() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("ModulesRegistery.json")
        try Data(#"{"modules": ["ModuleHostSeedTests.AuthModule", "ModuleHostSeedTests.ApplicationModule"]}"#.utf8).write(to: url)

        try ModuleManager.default.registerModules(withConfigFilePath: url)

        // A module calls another as the seed's modules do: `self.moduleManager?.bridge.resolve(.auth) as? …`.
        let application = try #require(try ModuleManager.default.bridge.resolve(.application) as? ApplicationModule)
        #expect(application.moduleManager === ModuleManager.default)
        #expect(application.startApplication() == User(name: "klein"))
        #expect(SeedCalls.shared.recorded == ["moduleDidLoad"])

        let report = try await ModuleManager.default.initiator.start()
        #expect(report.operations.map(\.identifier) == ["com.klein.module.application", "com.klein.module.auth"])
        #expect(SeedCalls.shared.recorded == ["moduleDidLoad", "application", "operation"])
        await ModuleManager.default.unloadAll()
    }
}
