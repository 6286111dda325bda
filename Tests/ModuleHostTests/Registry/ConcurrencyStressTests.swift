import Foundation
import Testing
@testable import ModuleHost
import TestSupport
import ModuleHostTesting

/// Tags that make distinct module types out of one generic class; all but every fourth require the one before,
/// which makes four requirement chains of four: Tag0 <- Tag1 <- Tag2 <- Tag3, Tag4 <- Tag5 <- Tag6 <- Tag7, ...
protocol StressTag {
    /// The module this tag's module requires, if any.
    static var requirement: ModuleIdentifier? { get }
}
extension StressTag {
    static var requirement: ModuleIdentifier? { nil }
}
enum Tag0: StressTag {}
enum Tag1: StressTag { static let requirement: ModuleIdentifier? = "stress.Tag0" }
enum Tag2: StressTag { static let requirement: ModuleIdentifier? = "stress.Tag1" }
enum Tag3: StressTag { static let requirement: ModuleIdentifier? = "stress.Tag2" }
enum Tag4: StressTag {}
enum Tag5: StressTag { static let requirement: ModuleIdentifier? = "stress.Tag4" }
enum Tag6: StressTag { static let requirement: ModuleIdentifier? = "stress.Tag5" }
enum Tag7: StressTag { static let requirement: ModuleIdentifier? = "stress.Tag6" }
enum Tag8: StressTag {}
enum Tag9: StressTag { static let requirement: ModuleIdentifier? = "stress.Tag8" }
enum Tag10: StressTag { static let requirement: ModuleIdentifier? = "stress.Tag9" }
enum Tag11: StressTag { static let requirement: ModuleIdentifier? = "stress.Tag10" }
enum Tag12: StressTag {}
enum Tag13: StressTag { static let requirement: ModuleIdentifier? = "stress.Tag12" }
enum Tag14: StressTag { static let requirement: ModuleIdentifier? = "stress.Tag13" }
enum Tag15: StressTag { static let requirement: ModuleIdentifier? = "stress.Tag14" }

protocol StressService: AnyObject, Sendable {
    var name: String { get }
}

/// A module per tag, requiring the tag's requirement: a task resolving the end of a chain loads the rest of the
/// chain first while other tasks resolve those modules directly, so loads also race through requirements.
final class StressModule<T: StressTag>: ModuleProtocol, StressService {
    static var moduleIdentifier: ModuleIdentifier { ModuleIdentifier(rawValue: "stress.\(T.self)") }
    static var requiredModules: [ModuleIdentifier] { T.requirement.map { [$0] } ?? [] }
    private let recorder = LoadRecorder.Holder()
    init(context: any ModuleContext) {}
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

@Suite("Concurrency stress", .timeLimit(.minutes(5)))
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
        let events = recorder.events
        for type in Self.types {
            let tag = Self.tag(type.moduleIdentifier)
            #expect(recorder.count(of: "load \(tag)") == 1, "\(tag)")
            // A requirement finished loading before the module that requires it began.
            for requirement in type.requiredModules {
                let required = events.firstIndex(of: "load \(Self.tag(requirement))"), dependent = events.firstIndex(of: "load \(tag)")
                #expect(required != nil && dependent != nil && required! < dependent!, "\(Self.tag(requirement)) before \(tag): \(events)")
            }
        }
        #expect(manager.loadedModules().count == Self.types.count)
        #expect(Self.types.filter { !$0.requiredModules.isEmpty }.count == 12, "the fixture has its requirement chains")
    }

    /// `Tag3` for `stress.Tag3`.
    private static func tag(_ identifier: ModuleIdentifier) -> String {
        String(identifier.rawValue.dropFirst("stress.".count))
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
                    await manager.unloadAll()
                    await Task.yield()
                }
            }
        }
        // Every load was matched by at most one unload, and what is still loaded was loaded once more.
        let loaded = Set(manager.loadedModules().map { type(of: $0).moduleIdentifier })
        for type in Self.types {
            let tag = Self.tag(type.moduleIdentifier)
            let loads = recorder.count(of: "load \(tag)"), unloads = recorder.count(of: "unload \(tag)")
            #expect(loads - unloads == (loaded.contains(type.moduleIdentifier) ? 1 : 0), "\(tag): \(loads) loads, \(unloads) unloads")
            // No module is left loaded without what it requires.
            if loaded.contains(type.moduleIdentifier) {
                #expect(type.requiredModules.allSatisfy(loaded.contains), "\(tag) is loaded without its requirement")
            }
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
                    manager.provide(stub, as: StressService.self)
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
    static let providedServices: [ProvidedService] = [.service(StressService.self, from: ProvidingStressModule.self) { $0 }]
    let name = "provider"
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws { manager.recorder?.record("load provider") }
}
