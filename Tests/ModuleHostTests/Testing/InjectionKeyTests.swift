import Testing
import ModuleHost
import ModuleHostTesting

/// A service class and a subclass of it, to hold a subclass's metatype in the wider static type.
class InjectedEngine: @unchecked Sendable {
    func sum() -> Int { 1 }
}

final class InjectedTurboEngine: InjectedEngine, @unchecked Sendable {
    let boost = 41
    func boostSum() -> Int { sum() + boost }
}

/// Injections and caches are keyed by the static service type, never by a metatype value, so no resolve can
/// read back a value of another type.
///
/// Came from Regression/ (added in c1e7bd2, injections keyed by the static type);
/// now filed under the feature it protects.
@Suite("Injection keys")
struct InjectionKeyTests {
    @Test func aSubclassMetatypeInAWiderStaticTypeInjectsTheWiderType() throws {
        let manager = ModuleManager(typeResolver: .types([]))
        let metatype: InjectedEngine.Type = InjectedTurboEngine.self
        let standIn = InjectedEngine()
        manager.provide(standIn, as: metatype)

        #expect(try manager.bridge.resolve(InjectedEngine.self) === standIn)
        // The subclass was never injected: an error, not a plain engine read back as a turbo one.
        #expect(throws: ResolutionError.self) { try manager.bridge.resolve(InjectedTurboEngine.self) }
        #expect(manager.bridge.provides(InjectedEngine.self))
        #expect(!manager.bridge.provides(InjectedTurboEngine.self))

        manager.removeInjection(as: metatype)
        #expect(!manager.bridge.provides(InjectedEngine.self))
    }
}
