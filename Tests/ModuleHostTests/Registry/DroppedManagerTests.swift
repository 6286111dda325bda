import Foundation
import Testing
@testable import ModuleHost

/// What a module that keeps its context resolves through it.
protocol KeptContextService: AnyObject, Sendable {
    /// Resolves this service again, through the context the instance was given.
    func resolveAgain() throws(ResolutionError) -> any KeptContextService
}

/// Keeps its context in a `let`, as the docs teach, so its bridge outlives `init(context:)`.
final class KeptContextModule: ModuleProtocol, KeptContextService {
    static let moduleIdentifier: ModuleIdentifier = "test.keptContext"
    static let providedServices: [ProvidedService] = [.service(KeptContextService.self, from: KeptContextModule.self) { $0 }]
    private let context: any ModuleContext

    init(context: any ModuleContext) {
        self.context = context
    }

    func resolveAgain() throws(ResolutionError) -> any KeptContextService {
        try context.bridge.resolve(KeptContextService.self)
    }
}

@Suite("A manager that goes away", .timeLimit(.minutes(2)))
struct DroppedManagerTests {
    private static let manifest = Data(#"{"modules": ["ModuleHostTests.KeptContextModule"]}"#.utf8)

    /// A manager with `KeptContextModule` registered and loaded; its instance, and the manager weakly.
    private func loadedModule() throws -> (module: any KeptContextService, manager: WeakBox<ModuleManager>) {
        let manager = ModuleManager()
        try manager.registerModules(from: Self.manifest)
        let module = try manager.bridge.resolve(KeptContextService.self)
        #expect(try module.resolveAgain() === module)
        return (module, WeakBox(manager))
    }

    @Test func aDroppedManagerFreesTheModulesItLoadedEvenThoseThatKeepTheirContext() throws {
        let (module, manager) = try loadedModule()
        let instance = WeakBox(module as AnyObject)
        _ = consume module
        #expect(manager.value == nil)
        #expect(instance.value == nil, "the registry kept the instance alive through the context's bridge")
    }

    @Test func aModuleThatOutlivesItsManagerLearnsTheManagerIsGone() throws {
        let (module, manager) = try loadedModule()
        #expect(manager.value == nil)
        let error = #expect(throws: ResolutionError.self) { try module.resolveAgain() }
        #expect(error?.code == .managerUnavailable)
    }

    @Test func aDroppedManagerCancelsTheStartupThatWaitsForTheHost() async throws {
        var manager: ModuleManager? = ModuleManager()
        guard let initiator = manager?.initiator else { throw CancellationError() }
        try initiator.add("first", priority: .high) {}
        try initiator.add("later", priority: .idle) {}
        _ = try await initiator.start()
        manager = nil
        // Without the cancel, the run would wait for the host's idle signal for good.
        let report = await initiator.waitUntilFinished()
        #expect(report.wasCancelled)
        #expect(report.operations.first { $0.identifier == "later" }?.state == .cancelled)
        #expect(report.operations.first { $0.identifier == "first" }?.state == .succeeded)
    }

    @Test func aManagerDroppedBeforeStartLeavesItsInitiatorStartable() async throws {
        var manager: ModuleManager? = ModuleManager()
        guard let initiator = manager?.initiator else { throw CancellationError() }
        try initiator.add("first", priority: .high) {}
        manager = nil
        let report = try await initiator.start()
        #expect(report.operations.first { $0.identifier == "first" }?.state == .succeeded)
    }
}

/// A weak reference, to see whether something was freed.
final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    weak var value: Object?

    init(_ value: Object) {
        self.value = value
    }
}
