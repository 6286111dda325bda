import Foundation
import Testing
@testable import ModuleHost
import ModuleHostTesting

/// Tags that make distinct module types out of one generic class.
enum Tag0 {}; enum Tag1 {}; enum Tag2 {}; enum Tag3 {}; enum Tag4 {}; enum Tag5 {}; enum Tag6 {}; enum Tag7 {}
enum Tag8 {}; enum Tag9 {}; enum Tag10 {}; enum Tag11 {}; enum Tag12 {}; enum Tag13 {}; enum Tag14 {}; enum Tag15 {}

protocol StressService: AnyObject, Sendable {
    var name: String { get }
}

/// A module per tag; every other one requires the previous, so loads also race through requirements.
final class StressModule<T>: ModuleProtocol, StressService {
    static var moduleIdentifier: ModuleIdentifier { ModuleIdentifier("stress.\(T.self)") }
    private let recorder = LoadRecorder.Holder()
    init() {}
    var name: String { "\(T.self)" }
    func moduleDidLoad(with manager: any ModuleContext) throws {
        recorder.set(manager.recorder)
        manager.recorder?.record("load \(T.self)")
        Thread.sleep(forTimeInterval: 0.001)
    }
    func moduleWillUnload() { recorder.get()?.record("unload \(T.self)") }
}

final class StubStress: StressService {
    let name = "stub"
}

@Suite("Concurrency stress", .timeLimit(.minutes(1)))
struct ConcurrencyStressTests {
    static let types: [any ModuleProtocol.Type] = [
        StressModule<Tag0>.self, StressModule<Tag1>.self, StressModule<Tag2>.self, StressModule<Tag3>.self,
        StressModule<Tag4>.self, StressModule<Tag5>.self, StressModule<Tag6>.self, StressModule<Tag7>.self,
        StressModule<Tag8>.self, StressModule<Tag9>.self, StressModule<Tag10>.self, StressModule<Tag11>.self,
        StressModule<Tag12>.self, StressModule<Tag13>.self, StressModule<Tag14>.self, StressModule<Tag15>.self,
    ]

    private func manager(recorder: LoadRecorder) throws -> ModuleManager {
        let manager = ModuleManager.forTesting(recorder: recorder)
        for type in Self.types { try register(type, in: manager) }
        return manager
    }

    private func register<M: ModuleProtocol>(_ type: M.Type, in manager: ModuleManager) throws {
        try manager.register(type)
    }

    @Test func eightTasksRacingFirstResolvesLoadEachModuleOnce() async throws {
        let recorder = LoadRecorder()
        let manager = try manager(recorder: recorder)
        let identifiers = Self.types.map { $0.moduleIdentifier }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var generator = SystemRandomNumberGenerator()
                    for round in 0..<20 {
                        for identifier in identifiers.shuffled(using: &generator) {
                            let module = try? manager.bridge.resolve(identifier)
                            #expect(module != nil, "task \(task) round \(round) \(identifier)")
                        }
                    }
                }
            }
        }
        for type in Self.types {
            let tag = String(describing: type).replacingOccurrences(of: "StressModule<", with: "").dropLast()
            #expect(recorder.count(of: "load \(tag)") == 1, "\(tag)")
        }
        #expect(manager.loadedModules().count == Self.types.count)
    }

    @Test func resolvesDuringUnloadAllStayConsistent() async throws {
        let recorder = LoadRecorder()
        let manager = try manager(recorder: recorder)
        let identifiers = Self.types.map { $0.moduleIdentifier }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<7 {
                group.addTask {
                    for _ in 0..<30 {
                        for identifier in identifiers { _ = try? manager.bridge.resolve(identifier) }
                    }
                }
            }
            group.addTask {
                for _ in 0..<10 {
                    manager.unloadAll()
                    await Task.yield()
                }
            }
        }
        // Every load was matched by at most one unload, and what is still loaded was loaded once more.
        let loaded = Set(manager.loadedModules().map { type(of: $0).moduleIdentifier })
        for type in Self.types {
            let tag = String(String(describing: type).dropFirst("StressModule<".count).dropLast())
            let loads = recorder.count(of: "load \(tag)"), unloads = recorder.count(of: "unload \(tag)")
            #expect(loads - unloads == (loaded.contains(type.moduleIdentifier) ? 1 : 0), "\(tag): \(loads) loads, \(unloads) unloads")
        }
    }

    @Test func injectionsDuringResolvesAreSeenWholeOrNotAtAll() async throws {
        let recorder = LoadRecorder()
        let manager = ModuleManager.forTesting(recorder: recorder)
        try manager.register(ProvidingStressModule.self)
        let stub = StubStress()
        let names = LoadRecorder()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<7 {
                group.addTask {
                    for _ in 0..<500 {
                        if let service = try? manager.bridge.resolve(StressService.self) { names.record(service.name) }
                    }
                }
            }
            group.addTask {
                for _ in 0..<200 {
                    manager.inject(stub, as: StressService.self)
                    await Task.yield()
                    manager.removeInjection(as: StressService.self)
                }
            }
        }
        #expect(Set(names.events).isSubset(of: ["stub", "provider"]))
        #expect(names.events.count == 7 * 500)
        #expect(recorder.count(of: "load provider") == 1)
        #expect(try manager.bridge.resolve(StressService.self).name == "provider")
    }
}

/// Provides StressService; used by the injection race.
final class ProvidingStressModule: ModuleProtocol, StressService {
    static let moduleIdentifier: ModuleIdentifier = "stress.provider"
    static let providedServices: [ProvidedService] = [.service(StressService.self)]
    let name = "provider"
    init() {}
    func moduleDidLoad(with manager: any ModuleContext) throws { manager.recorder?.record("load provider") }
}
