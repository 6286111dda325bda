import Foundation
import Testing
import ModuleHost
import ModuleHostTesting

protocol StandInStorage: Sendable {
    func read() -> String
}

protocol StandInNotes: Sendable {
    func firstNote() -> String
}

struct FakeStandInStorage: StandInStorage {
    func read() -> String { "from the fake" }
}

extension ModuleIdentifier {
    static let standInStorage: ModuleIdentifier = "test.stand-in.storage"
}

/// A module under test that requires a storage module it does not import.
final class StandInNotesModule: ModuleProtocol, StandInNotes {
    static let moduleIdentifier: ModuleIdentifier = "test.stand-in.notes"
    static let requiredModules: [ModuleIdentifier] = [.standInStorage]
    static let providedServices: [ProvidedService] = [.service(StandInNotes.self, from: StandInNotesModule.self) { $0 }]
    private let storage = Locked<(any StandInStorage)?>(nil)
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        let found = try manager.bridge.resolve(StandInStorage.self)
        storage.withLock { $0 = found }
    }
    func firstNote() -> String { storage.withLock { $0?.read() } ?? "none" }
}

/// Testing a module with a requirement took a hand-written stand-in module besides the fake
/// service; now one line per requirement.
@Suite("Stand-ins for required modules")
struct StandInTests {
    @Test func aModuleWithARequirementIsTestedAloneWithOneLineOfStandIn() throws {
        let manager = ModuleManager()
        try manager.register(StandInNotesModule.self)
        manager.standIn(for: .standInStorage, providing: FakeStandInStorage() as any StandInStorage)
        let notes = try manager.bridge.resolve(StandInNotes.self)
        #expect(notes.firstNote() == "from the fake")
    }

    /// Registering in code does not check requirements (stand-ins come after it, in any order); the first resolve
    /// names the requirement that is missing.
    @Test func withoutAStandInTheResolveNamesTheMissingRequirement() throws {
        let manager = ModuleManager()
        try manager.register(StandInNotesModule.self)
        let error = #expect(throws: ResolutionError.self) { try manager.bridge.resolve(StandInNotes.self) }
        #expect(error?.code == .loadFailed)
        #expect(error.map { "\($0)".contains("test.stand-in.storage") } ?? false, "\(String(describing: error))")
    }
}
