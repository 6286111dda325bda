import Foundation
import ModuleHost
import TestSupport

protocol GreetingService: Sendable {
    func greet(_ name: String) -> String
}

protocol CounterService: Sendable {
    var identifier: ObjectIdentifier { get }
}

protocol UnprovidedService: Sendable {}

extension ModuleIdentifier {
    static let greeter: ModuleIdentifier = "test.greeter"
    static let base: ModuleIdentifier = "test.base"
    static let slow: ModuleIdentifier = "test.slow"
}

/// Has no requirements; records its load and unload.
final class BaseModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = .base
    private let recorder = LoadRecorder.Holder()
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        recorder.set(manager.recorder)
        manager.recorder?.record("load base")
    }
    func moduleWillUnload() { recorder.get()?.record("unload base") }
}

/// Requires BaseModule and provides GreetingService itself.
final class GreeterModule: ModuleProtocol, GreetingService {
    static let moduleIdentifier: ModuleIdentifier = .greeter
    static let requiredModules: [ModuleIdentifier] = [.base]
    static let providedServices: [ProvidedService] = [.service(GreetingService.self, from: GreeterModule.self) { $0 }]
    private let recorder = LoadRecorder.Holder()
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        recorder.set(manager.recorder)
        manager.recorder?.record("load greeter")
    }
    func moduleWillUnload() { recorder.get()?.record("unload greeter") }
    func greet(_ name: String) -> String { "Hello, \(name)!" }
}

/// Slow to load, to widen the window in which concurrent first resolves race.
final class SlowModule: ModuleProtocol, CounterService {
    static let moduleIdentifier: ModuleIdentifier = .slow
    static let providedServices: [ProvidedService] = [.service(CounterService.self, from: SlowModule.self) { $0 }]
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        manager.recorder?.record("load slow")
        Thread.sleep(forTimeInterval: 0.05)
    }
    var identifier: ObjectIdentifier { ObjectIdentifier(self) }
}

/// Eager: loaded by loadEagerModules, not only on first resolve.
final class EagerModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.eager"
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { manager.recorder?.record("load eager") }
}

/// Resolves the greeter from its own moduleDidLoad (re-entrant resolve, no cycle).
final class ReentrantModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.reentrant"
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        let greeter = try manager.bridge.resolve(GreetingService.self)
        manager.recorder?.record("reentrant got: \(greeter.greet("re-entry"))")
    }
}

/// CycleA and CycleB resolve each other from moduleDidLoad.
final class CycleAModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.cycle.a"
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        _ = try manager.bridge.resolve("test.cycle.b")
    }
}

final class CycleBModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.cycle.b"
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        _ = try manager.bridge.resolve("test.cycle.a")
    }
}

/// The same cycle, but each side first waits until the other has started loading on another thread.
final class CrossAModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.cross.a"
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        let latch = try manager.bridge.resolve(CrossThreadLatch.self)
        latch.aStarted.fire()
        _ = latch.bStarted.wait()
        _ = try manager.bridge.resolve("test.cross.b")
    }
}

final class CrossBModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.cross.b"
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        let latch = try manager.bridge.resolve(CrossThreadLatch.self)
        latch.bStarted.fire()
        _ = latch.aStarted.wait()
        _ = try manager.bridge.resolve("test.cross.a")
    }
}

/// Static requirement cycle: RequiresB requires RequiresA's identifier and vice versa.
final class RequiresAModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.requires.a"
    static let requiredModules: [ModuleIdentifier] = ["test.requires.b"]
    init(context: any ModuleContext) {}
}

final class RequiresBModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.requires.b"
    static let requiredModules: [ModuleIdentifier] = ["test.requires.a"]
    init(context: any ModuleContext) {}
}

/// Requires a module nobody provides.
final class NeedsMissingModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.needs-missing"
    static let requiredModules: [ModuleIdentifier] = ["test.greeterr"]
    init(context: any ModuleContext) {}
}

/// Throws from moduleDidLoad.
struct DeliberateFailure: Error, CustomStringConvertible {
    var description: String { "deliberate failure in moduleDidLoad" }
}

final class FailingModule: ModuleProtocol, UnprovidedService {
    static let moduleIdentifier: ModuleIdentifier = "test.failing"
    static let providedServices: [ProvidedService] = [.service(UnprovidedService.self, from: FailingModule.self) { $0 }]
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { throw DeliberateFailure() }
}

/// Declares GreetingService from GreeterModule, which it is not.
final class LiarModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.liar"
    static let providedServices: [ProvidedService] = [.service(GreetingService.self, from: GreeterModule.self) { $0 }]
    init(context: any ModuleContext) {}
}

/// A second provider of GreetingService with its own identifier (duplicate-service validation).
final class OtherGreeterModule: ModuleProtocol, GreetingService {
    static let moduleIdentifier: ModuleIdentifier = "test.other-greeter"
    static let providedServices: [ProvidedService] = [.service(GreetingService.self, from: OtherGreeterModule.self) { $0 }]
    init(context: any ModuleContext) {}
    func greet(_ name: String) -> String { "Hi, \(name)." }
}

/// Reuses GreeterModule's identifier (duplicate-identifier validation).
final class GreeterImpostorModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = .greeter
    init(context: any ModuleContext) {}
}

/// Hands out its service through an accessor instead of conforming itself.
final class AccessorModule: ModuleProtocol {
    struct Counter: CounterService {
        let identifier: ObjectIdentifier
    }
    static let moduleIdentifier: ModuleIdentifier = "test.accessor"
    static let providedServices: [ProvidedService] = [.service(CounterService.self, from: AccessorModule.self) { $0.counter }]
    var counter: Counter { Counter(identifier: ObjectIdentifier(self)) }
    init(context: any ModuleContext) {}
}

/// Reads a typed config from the manifest.
final class ConfiguredModule: ConfigurableModule {
    struct Configuration: Decodable, Sendable {
        struct User: Decodable, Sendable {
            let name: String
            let age: Int
        }
        let greeting: String
        var users: [User] = []
    }
    static let moduleIdentifier: ModuleIdentifier = "test.configured"
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        let config = try manager.configuration(for: Self.self)
        manager.recorder?.record("config greeting: \(config.greeting), users: \(config.users.count)")
    }
}

/// A class that is not a module.
final class NotAModule {}

extension LoadRecorder {
    /// Lets a module keep the recorder it found at load time for use at unload time.
    final class Holder: Sendable {
        private let value = Locked<LoadRecorder?>(nil)
        func set(_ recorder: LoadRecorder?) { value.withLock { $0 = recorder } }
        func get() -> LoadRecorder? { value.withLock { $0 } }
    }
}
