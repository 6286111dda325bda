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

/// Lets a test hold a startup operation of `GatedStartupModule` until it opens the gate; provided per manager.
final class StartupGate: Sendable {
    private let entered: AsyncStream<Void>.Continuation
    private let enteredStream: AsyncStream<Void>
    private let opened: AsyncStream<Void>.Continuation
    private let openedStream: AsyncStream<Void>

    init() {
        (enteredStream, entered) = AsyncStream.makeStream()
        (openedStream, opened) = AsyncStream.makeStream()
    }

    /// Called by the operation: says it is running, then waits until the test opens the gate.
    func pass() async {
        entered.yield()
        for await _ in openedStream { return }
    }

    /// Waits until the operation is running.
    func waitUntilEntered() async {
        for await _ in enteredStream { return }
    }

    func open() {
        opened.yield()
    }
}

/// Declares one operation that waits at the manager's ``StartupGate``, and one after it.
final class GatedStartupModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.gatedStartup"
    static let startupOperations: [ModuleStartupOperation] = [
        ModuleStartupOperation("gated.wait", priority: .asyncHigh) { manager in
            await (try manager.bridge.resolve(StartupGate.self)).pass()
        },
        ModuleStartupOperation("gated.after", priority: .asyncHigh, dependencies: ["gated.wait"]) { _ in },
    ]
    static var contributions: [Contribution] { startupOperations.map(Contribution.startupOperation) }

    init(context: any ModuleContext) {}
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

    @Test func aManagerWhoseLastReferenceAnOperationHoldsCancelsTheRestWhenItReturns() async throws {
        var manager: ModuleManager? = ModuleManager()
        let gate = StartupGate()
        manager?.provide(gate, as: StartupGate.self)
        try manager?.registerModules(from: Data(#"{"modules": ["ModuleHostTests.GatedStartupModule"]}"#.utf8))
        guard let initiator = manager?.initiator else { throw CancellationError() }
        let start = Task { try await initiator.start() }
        await gate.waitUntilEntered()
        // The running operation now holds the only reference; the manager goes away on its task as it returns.
        manager = nil
        gate.open()
        let error = await #expect(throws: InitiatorError.self) { try await start.value }
        #expect(error?.code == .cancelled)
        let report = await initiator.waitUntilFinished()
        #expect(report.wasCancelled)
        #expect(report.operations.first { $0.identifier == "gated.after" }?.state == .cancelled)
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
