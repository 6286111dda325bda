import Foundation
import ModuleHost
import Synchronization
import Testing

/// A module in ModuleHost's form that also writes the seed's hook, `moduleDidLoad(with manager: ModuleManager)`, with
/// only ModuleHost imported: the near miss builds, and the hook is called, right after `moduleDidLoad(with:)`, with
/// the manager that loads the module. It used to compile and never be called.
final class MixedFormModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.mixed-form"
    let calls = Mutex<[String]>([])
    let manager = Mutex<ObjectIdentifier?>(nil)

    init(context: any ModuleContext) {}

    func moduleDidLoad(with context: any ModuleContext) {
        calls.withLock { $0.append("context") }
    }

    func moduleDidLoad(with manager: ModuleManager) {
        calls.withLock { $0.append("manager") }
        self.manager.withLock { $0 = ObjectIdentifier(manager) }
    }
}

@Suite("The seed's hook in ModuleHost's form")
struct SeedHookNearMissTests {
    @Test func theSeedsHookWrittenBesideModuleHostsFormIsCalledAfterIt() throws {
        let manager = ModuleManager(typeResolver: .types([MixedFormModule.self]))
        try manager.register(MixedFormModule.self)
        let module = try #require(try manager.bridge.resolve(MixedFormModule.moduleIdentifier) as? MixedFormModule)
        #expect(module.calls.withLock { $0 } == ["context", "manager"])
        #expect(module.manager.withLock { $0 } == ObjectIdentifier(manager))
    }
}
