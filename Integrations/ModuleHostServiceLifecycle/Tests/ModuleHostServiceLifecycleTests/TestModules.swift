import Foundation
import ModuleHost
import Synchronization

/// Where test modules record what happened; each test provides its own, so parallel tests share nothing.
final class Recorder: Sendable {
    private let storage = Mutex<[String]>([])
    /// Receives a value when the later-phase operation runs.
    let laterPhaseRan: AsyncStream<Void>
    private let laterPhaseContinuation: AsyncStream<Void>.Continuation

    /// Receives a value when the gated blocking operation has started.
    let gatedStarted: AsyncStream<Void>
    private let gatedContinuation: AsyncStream<Void>.Continuation

    /// Finishes when the test lets a gated teardown end.
    let teardownGate: AsyncStream<Void>
    private let teardownGateContinuation: AsyncStream<Void>.Continuation

    init() {
        (laterPhaseRan, laterPhaseContinuation) = AsyncStream<Void>.makeStream()
        (gatedStarted, gatedContinuation) = AsyncStream<Void>.makeStream()
        (teardownGate, teardownGateContinuation) = AsyncStream<Void>.makeStream()
    }

    /// Lets the gated teardown end.
    func openTeardownGate() { teardownGateContinuation.finish() }

    func record(_ event: String) { storage.withLock { $0.append(event) } }
    var events: [String] { storage.withLock { $0 } }
    func laterPhaseDidRun() { laterPhaseContinuation.yield() }
    func gatedDidStart() { gatedContinuation.yield() }
}

extension ModuleContext {
    var recorder: Recorder? { try? bridge.resolve(Recorder.self) }
}

/// Holds the recorder a module got at load time.
final class RecorderHolder: Sendable {
    private let storage = Mutex<Recorder?>(nil)
    func set(_ recorder: Recorder?) { storage.withLock { $0 = recorder } }
    var value: Recorder? { storage.withLock { $0 } }
}

/// The base module: a blocking startup operation, a later one, and an asynchronous teardown that suspends.
final class BaseModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.base"
    static var contributions: [Contribution] { startupOperations.map(Contribution.startupOperation) }
    static let startupOperations: [ModuleStartupOperation] = [
        ModuleStartupOperation("base.blocking", priority: .asyncHigh) { context in
            context.recorder?.record("blocking operation")
        },
        ModuleStartupOperation("base.later", priority: .low) { context in
            context.recorder?.record("later operation")
            context.recorder?.laterPhaseDidRun()
        },
    ]
    private let holder = RecorderHolder()
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { holder.set(manager.recorder) }
    func moduleTearDown() async {
        holder.value?.record("teardown began base")
        try? await Task.sleep(for: .milliseconds(20))
        holder.value?.record("teardown finished base")
    }
}

/// Requires the base module, so it is unloaded before it.
final class TopModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.top"
    static let requiredModules: [ModuleIdentifier] = ["test.base"]
    private let holder = RecorderHolder()
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        holder.set(manager.recorder)
        manager.recorder?.record("loaded top")
    }
    func moduleTearDown() async {
        holder.value?.record("teardown began top")
        await Task.yield()
        holder.value?.record("teardown finished top")
    }
}

/// Its blocking startup operation fails.
final class FailingStartupModule: ModuleProtocol {
    struct Broken: Error, CustomStringConvertible { var description: String { "the disk is full" } }
    static let moduleIdentifier: ModuleIdentifier = "test.failing-startup"
    static var contributions: [Contribution] { startupOperations.map(Contribution.startupOperation) }
    static let startupOperations: [ModuleStartupOperation] = [
        ModuleStartupOperation("failing.open", priority: .asyncHigh) { _ in throw Broken() },
    ]
    init(context: any ModuleContext) {}
}

/// Its blocking startup operation runs until it is cancelled.
final class GatedStartupModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.gated"
    static var contributions: [Contribution] { startupOperations.map(Contribution.startupOperation) }
    static let startupOperations: [ModuleStartupOperation] = [
        ModuleStartupOperation("gated.wait", priority: .asyncHigh) { context in
            context.recorder?.gatedDidStart()
            let never = AsyncStream<Never> { _ in }
            for await _ in never {}
        },
    ]
    init(context: any ModuleContext) {}
}

/// Fails to load (eager in the manifest).
final class FailingLoadModule: ModuleProtocol {
    struct Broken: Error, CustomStringConvertible { var description: String { "no configuration" } }
    static let moduleIdentifier: ModuleIdentifier = "test.failing-load"
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { throw Broken() }
}

/// Its teardown never returns on its own.
final class HangingModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.hanging"
    init(context: any ModuleContext) {}
    /// Waits for an element that never comes: returns only when its task is cancelled.
    func moduleTearDown() async {
        let never = AsyncStream<Never> { _ in }
        for await _ in never {}
    }
}

/// Its teardown ends when the test opens the recorder's teardown gate.
final class GatedTeardownModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.gated-teardown"
    private let recorder: Recorder?
    init(context: any ModuleContext) throws { recorder = context.recorder }
    func moduleTearDown() async {
        guard let recorder else { return }
        for await _ in recorder.teardownGate {}
    }
}

extension ModuleManager {
    /// A manager with `recorder` provided and the test modules `types` registered from a manifest
    /// (`eager` ones marked so).
    static func testing(_ types: [any ModuleProtocol.Type], eager: Set<String> = [], recorder: Recorder) throws -> ModuleManager {
        let manager = ModuleManager(typeResolver: .types([BaseModule.self, TopModule.self, FailingStartupModule.self,
                                                          FailingLoadModule.self, HangingModule.self,
                                                          GatedStartupModule.self, GatedTeardownModule.self]))
        manager.provide(recorder, as: Recorder.self)
        let entries = types.map { type in
            let name = String(reflecting: type)
            return "{\"type\": \"\(name)\", \"eager\": \(eager.contains(name) ? "true" : "false")}"
        }
        try manager.registerModules(from: Data("{\"modules\": [\(entries.joined(separator: ", "))]}".utf8))
        return manager
    }
}
