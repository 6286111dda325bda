import Foundation
import Testing
@testable import ModuleHost
import TestSupport
import ModuleHostTesting

@Suite("Module resolution")
struct ResolutionTests: RegistrySuite {
    @Test func resolvesByIdentifier() throws {
        let manager = try manager("BaseModule", "GreeterModule")
        let module = try manager.bridge.resolve(.greeter)
        #expect(module is GreeterModule)
        let typed = try manager.bridge.resolve(.greeter, as: GreetingService.self)
        #expect(typed.greet("id") == "Hello, id!")
    }

    @Test func resolvesByServiceTypeWithoutACast() throws {
        let manager = try manager("BaseModule", "GreeterModule")
        let greeter: any GreetingService = try manager.bridge.resolve(GreetingService.self)
        #expect(greeter.greet("Ada") == "Hello, Ada!")
        // Warm resolves return the same instance as the module itself.
        let again = try manager.bridge.resolve(GreetingService.self)
        #expect(ObjectIdentifier(again as AnyObject) == ObjectIdentifier(try manager.bridge.resolve(.greeter)))
    }

    @Test func serviceFromAnAccessor() throws {
        let manager = try manager("AccessorModule")
        let counter = try manager.bridge.resolve(CounterService.self)
        #expect(counter.identifier == ObjectIdentifier(try manager.bridge.resolve("test.accessor")))
    }

    @Test func modulesAreLazyAndLoadTheirRequirementsFirst() throws {
        let recorder = LoadRecorder()
        let manager = try manager("BaseModule", "GreeterModule", recorder: recorder)
        #expect(recorder.events.isEmpty)
        #expect(manager.modules.allSatisfy { $0.state == .registered })
        _ = try manager.bridge.resolve(GreetingService.self)
        #expect(recorder.events == ["load base", "load greeter"])
        #expect(manager.modules.allSatisfy { $0.state == .loaded })
    }

    @Test func eagerModulesLoadWithLoadEagerModules() throws {
        let recorder = LoadRecorder()
        let manager = ModuleManager.forTesting(recorder: recorder)
        try manager.registerModules(from: Data("""
            {"modules": [{"type": "ModuleHostTests.EagerModule", "eager": true}, "ModuleHostTests.BaseModule"]}
            """.utf8))
        #expect(recorder.events.isEmpty)
        #expect(manager.loadEagerModules().isEmpty)
        #expect(recorder.events == ["load eager"])
        #expect(manager.modules.map(\.state) == [.loaded, .registered])
    }

    @Test func unknownIdentifierNamesWhatIsAvailable() throws {
        let manager = try manager("BaseModule", "GreeterModule")
        let error = try #require(throws: ResolutionError.self) { try manager.bridge.resolve("test.greeterr") }
        #expect(error.code == .unknownModule)
        #expect(error.message.contains("\"test.greeterr\""))
        #expect(error.message.contains("registered: test.base, test.greeter"))
        #expect(error.message.contains("did you mean \"test.greeter\"?"))
    }

    @Test func unprovidedServiceNamesWhatIsAvailable() throws {
        let manager = try manager("BaseModule", "GreeterModule")
        let error = try #require(throws: ResolutionError.self) { try manager.bridge.resolve(UnprovidedService.self) }
        #expect(error.code == .unprovidedService)
        #expect(error.message.contains("ModuleHostTests.UnprovidedService"))
        #expect(error.message.contains("ModuleHostTests.GreetingService"))
        #expect(try manager.bridge.resolveIfProvided(UnprovidedService.self) == nil)
    }

    @Test func failedLoadIsReportedAndSticky() throws {
        let manager = try manager("FailingModule", "BaseModule")
        let error = try #require(throws: ResolutionError.self) { try manager.bridge.resolve(UnprovidedService.self) }
        #expect(error.code == .loadFailed)
        #expect(error.underlyingError is DeliberateFailure)
        #expect(error.description.contains("deliberate failure in moduleDidLoad"))
        #expect(manager.modules.first?.state == .failed)
        // Other modules keep working.
        #expect(try manager.bridge.resolve(.base) is BaseModule)
        let again = try #require(throws: ResolutionError.self) { try manager.bridge.resolve("test.failing") }
        #expect(again.code == .loadFailed)
    }

    /// A module that declares a service from another module type is refused when it registers, not at its first
    /// resolve.
    @Test func aServiceDeclaredFromAnotherModuleTypeIsRefusedAtRegistration() throws {
        let error = try #require(throws: ManifestError.self) { try manager("LiarModule") }
        let problem = try #require(error.diagnostics.first)
        #expect(problem.code == .serviceNotProvided)
        #expect(problem.message.contains("ModuleHostTests.LiarModule declares ModuleHostTests.GreetingService from ModuleHostTests.GreeterModule"))
    }

    /// An instance injected in a module's place that neither is the declared module type nor conforms to the
    /// service cannot provide it, and resolving says so; one that conforms provides it.
    @Test func anInjectedInstanceProvidesADeclaredServiceOnlyIfItConformsToIt() throws {
        let nonconforming = try manager("BaseModule", "GreeterModule")
        nonconforming.inject(BaseModule(context: nonconforming), for: .greeter)
        let error = try #require(throws: ResolutionError.self) { try nonconforming.bridge.resolve(GreetingService.self) }
        #expect(error.code == .serviceNotImplemented)
        #expect(error.message.contains("it is not ModuleHostTests.GreeterModule"))
        let conforming = try manager("BaseModule", "GreeterModule")
        conforming.inject(OtherGreeterModule(context: conforming), for: .greeter)
        let greeter = try conforming.bridge.resolve(GreetingService.self)
        #expect(greeter.greet("Ada") == "Hi, Ada.")
    }

    @Test func unloadAllRunsInReverseLoadOrder() async throws {
        let recorder = LoadRecorder()
        let manager = try manager("BaseModule", "GreeterModule", recorder: recorder)
        _ = try manager.bridge.resolve(GreetingService.self)
        let unloaded = await manager.unloadAll().map(\.module)
        #expect(unloaded == [.greeter, .base])
        #expect(recorder.events == ["load base", "load greeter", "unload greeter", "unload base"])
        #expect(manager.loadedModules().isEmpty)
        // A later resolve loads afresh.
        _ = try manager.bridge.resolve(.base)
        #expect(recorder.count(of: "load base") == 2)
    }

    @Test func injectionReplacesAndRestores() throws {
        struct StubGreeter: GreetingService {
            func greet(_ name: String) -> String { "stub \(name)" }
        }
        let manager = try manager("BaseModule", "GreeterModule")
        manager.provide(StubGreeter(), as: GreetingService.self)
        #expect(try manager.bridge.resolve(GreetingService.self).greet("x") == "stub x")
        manager.removeInjection(as: GreetingService.self)
        #expect(try manager.bridge.resolve(GreetingService.self).greet("x") == "Hello, x!")

        let replacement = OtherGreeterModule(context: ModuleManager())
        manager.inject(replacement, for: .greeter)
        #expect(try manager.bridge.resolve(.greeter) === replacement)
        #expect(try manager.bridge.resolve(GreetingService.self).greet("y") == "Hi, y.")
        manager.removeInjection(for: .greeter)
        #expect(try manager.bridge.resolve(.greeter) is GreeterModule)
        #expect(try manager.bridge.resolve(GreetingService.self).greet("y") == "Hello, y!")
    }

    @Test func injectionWithoutRegistration() throws {
        let manager = ModuleManager()
        let stub = BaseModule(context: ModuleManager())
        manager.inject(stub, for: "test.anything")
        #expect(try manager.bridge.resolve("test.anything") === stub)
    }

    @Test func managersShareNoState() throws {
        let first = try manager("BaseModule")
        let second = ModuleManager()
        _ = try first.bridge.resolve(.base)
        #expect(second.modules.isEmpty)
        #expect(throws: ResolutionError.self) { try second.bridge.resolve(.base) }
    }

    @Test func configurationIsTypedAndReadInModuleDidLoad() throws {
        let recorder = LoadRecorder()
        let manager = ModuleManager.forTesting(recorder: recorder)
        try manager.registerModules(from: Data("""
            {"modules": [{"type": "ModuleHostTests.ConfiguredModule", "config": {"greeting": "hey", "users": [{"name": "a", "age": 3}]}}]}
            """.utf8))
        _ = try manager.bridge.resolve("test.configured")
        #expect(recorder.events == ["config greeting: hey, users: 1"])
    }

    @Test func configurationGivenInCode() throws {
        let recorder = LoadRecorder()
        let manager = ModuleManager.forTesting(recorder: recorder)
        try manager.register(ConfiguredModule.self, config: .init(greeting: "code"))
        _ = try manager.bridge.resolve("test.configured")
        #expect(recorder.events == ["config greeting: code, users: 0"])
    }

    @Test func registeringTheSameIdentifierTwiceInCodeFails() throws {
        let manager = ModuleManager()
        try manager.register(BaseModule.self)
        let error = try #require(throws: ManifestError.self) { try manager.register(BaseModule.self) }
        #expect(error.diagnostics.first?.code == .duplicateIdentifier)
    }

    @Test func aSecondManifestCannotClashWithTheFirst() throws {
        let manager = try manager("BaseModule", "GreeterModule")
        let error = try #require(throws: ManifestError.self) {
            try manager.registerModules(from: Data(#"{"modules": ["ModuleHostTests.OtherGreeterModule"]}"#.utf8))
        }
        #expect(error.diagnostics.map(\.code) == [.duplicateService])
    }

    /// ModuleHost has no process-wide manager (the seed's `ModuleManager.default` is ModuleHostSeed's): managers
    /// share nothing.
    @Test func managersShareNothing() throws {
        let identifier = ModuleIdentifier(rawValue: "test.managers.\(UUID().uuidString)")
        let first = ModuleManager(), second = ModuleManager()
        first.inject(BaseModule(context: ModuleManager()), for: identifier)
        #expect(throws: ResolutionError.self) { try second.bridge.resolve(identifier) }
        try second.register(BaseModule.self)
        let loaded = try second.bridge.resolve(BaseModule.moduleIdentifier)
        #expect(!first.modules.contains { $0.identifier == BaseModule.moduleIdentifier })
        #expect(!first.loadedModules().contains { $0 === loaded })
        #expect(throws: ResolutionError.self) { try first.bridge.resolve(BaseModule.moduleIdentifier) }
    }
}
