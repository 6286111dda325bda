import Foundation
import ModuleHostSeed
import Synchronization
import Testing

extension ModuleIdentifier {
    static let profile: ModuleIdentifier = "com.klein.module.profile"
}

/// A seed module that keeps the user session's events, as the seed's session example does.
final class ProfileModule: ModuleProtocol, SessionModuleProtocol {
    static var moduleIdentifier: ModuleIdentifier { .profile }
    let events = Mutex<[String]>([])
    let loadedBy = Mutex<ObjectIdentifier?>(nil)

    required init() { }

    func moduleDidLoad(with manager: ModuleManager) {
        loadedBy.withLock { $0 = ObjectIdentifier(manager) }
    }

    func sessionDidAuthenticate(with session: UserSession) {
        events.withLock { $0.append("in \(session.userID)") }
    }

    func sessionDidDeauthenticate(with session: UserSession) {
        events.withLock { $0.append("out \(session.userID)") }
    }
}

/// A seed module whose set-up fails: the failure is reported, not lost.
final class BrokenSeedModule: ModuleProtocol {
    struct Broken: Error {}
    static var moduleIdentifier: ModuleIdentifier { "com.klein.module.broken" }
    required init() { }
    func moduleDidLoad(with manager: ModuleManager) throws { throw Broken() }
}

/// A seed module that writes ModuleHost's hook instead of the seed's: it is the one called.
final class ContextHookModule: ModuleProtocol {
    static var moduleIdentifier: ModuleIdentifier { "com.klein.module.context-hook" }
    let called = Mutex(false)
    required init() { }
    func moduleDidLoad(with context: any ModuleContext) throws { called.withLock { $0 = true } }
}

/// Each test makes its own manager (`ModuleManager()`), as the seed's idioms work on any manager.
@Suite("The seed's idioms")
struct SeedIdiomTests {
    private func manager(listing names: [String]) throws -> ModuleManager {
        let manager = ModuleManager()
        let list = names.map { "\"ModuleHostSeedTests.\($0)\"" }.joined(separator: ", ")
        try manager.registerModules(from: Data(#"{"modules": [\#(list)]}"#.utf8), file: "seed.json")
        return manager
    }

    @Test func resolveByIdentifierGivesTheModuleTheSeedsHookWasCalledWith() throws {
        let manager = try manager(listing: ["ProfileModule"])
        let module = try manager.bridge.resolve(.init(rawValue: "com.klein.module.profile"))
        let profile = try #require(module as? ProfileModule)
        #expect(profile.loadedBy.withLock { $0 } == ObjectIdentifier(manager))
    }

    /// `moduleManager` is the manager that loaded the instance, whichever of two did; none for one made by hand.
    @Test func aSeedModulesManagerIsTheOneThatLoadedIt() throws {
        let first = try manager(listing: ["ProfileModule"]), second = try manager(listing: ["ProfileModule"])
        let fromFirst = try #require(try first.bridge.resolve("com.klein.module.profile") as? ProfileModule)
        let fromSecond = try #require(try second.bridge.resolve("com.klein.module.profile") as? ProfileModule)
        #expect(fromFirst.moduleManager === first)
        #expect(fromSecond.moduleManager === second)
        #expect(ProfileModule().moduleManager == nil)
    }

    /// `releaseModule(_:)`, the seed's `markAsReleasing()`, takes the seed's text identifiers in a seed file.
    @Test func aSeedIdentifierReleasesItsModule() throws {
        let manager = try manager(listing: ["ProfileModule"])
        let profile = try #require(try manager.bridge.resolve(.profile) as? ProfileModule)
        #expect(try manager.releaseModule(.profile) == ["com.klein.module.profile"])
        let again = try #require(try manager.bridge.resolve(.profile) as? ProfileModule)
        #expect(again !== profile, "a released module is loaded anew")
    }

    @Test func userSessionCallsReachASeedModule() throws {
        let manager = try manager(listing: ["ProfileModule"])
        let profile = try #require(try manager.bridge.resolve("com.klein.module.profile") as? ProfileModule)
        manager.beginUserSession(with: "ada")
        #expect(manager.session?.userID == "ada")
        manager.endUserSession(with: "ada")
        #expect(manager.session == nil)
        #expect(profile.events.withLock { $0 } == ["in ada", "out ada"])
    }

    @Test func aSeedHookThatThrowsIsReportedAsAFailedLoad() throws {
        let manager = try manager(listing: ["BrokenSeedModule"])
        let error = #expect(throws: ResolutionError.self) { try manager.bridge.resolve("com.klein.module.broken") }
        #expect(error?.code == .loadFailed)
        #expect(error?.underlyingError is BrokenSeedModule.Broken)
    }

    @Test func aSeedModuleThatWritesModuleHostsHookHasThatHookCalled() throws {
        let manager = try manager(listing: ["ContextHookModule"])
        let module = try #require(try manager.bridge.resolve("com.klein.module.context-hook") as? ContextHookModule)
        #expect(module.called.withLock { $0 })
    }

    @Test func theSeedsPrioritiesAreModuleHostsPhases() {
        let seed: [Initiator.Priority] = [.high, .asyncHigh, .afterFirstFrame, .low, .idle]
        #expect(seed == ModuleStartupOperation.Priority.allCases)
    }
}
