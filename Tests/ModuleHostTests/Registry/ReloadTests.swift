import Foundation
import Testing
@testable import ModuleHost
import ModuleHostTesting

protocol ReloadNotes: Sendable {
    var notes: [String] { get }
}

/// The notes a store holds on disk, shared by every instance of the module (what a file would be).
final class ReloadNotesStore: Sendable {
    let saved = Locked<[String]>(["first", "second"])
    let loads = Locked(0)
}

/// Loads its notes in a startup operation, as the NotesModule that found this did: a reload that skipped the
/// operation left the new instance empty, and the next save would have overwritten the file.
final class ReloadNotesModule: ModuleProtocol, ReloadNotes {
    static let moduleIdentifier: ModuleIdentifier = "test.reload.notes"
    static let providedServices: [ProvidedService] = [.service(ReloadNotes.self, from: ReloadNotesModule.self) { $0 }]
    static var contributions: [Contribution] { startupOperations.map(Contribution.startupOperation) }
    static let startupOperations: [ModuleStartupOperation] = [
        ModuleStartupOperation("test.reload.notes.load", priority: .asyncHigh) { context in
            let store = try context.bridge.resolve(ReloadNotesStore.self)
            let module = try context.bridge.resolve(ReloadNotes.self) as? ReloadNotesModule
            module?.loaded.withLock { $0 = store.saved.withLock { $0 } }
            store.loads.withLock { $0 += 1 }
        },
    ]
    let loaded = Locked<[String]>([])
    init(context: any ModuleContext) {}
    var notes: [String] { loaded.withLock { $0 } }
}

/// `reload <module>` did not rerun the module's startup operations. Decided: it reruns them.
@Suite("Reload keeps a module whole")
struct ReloadTests {
    @Test func reloadRunsTheModulesStartupOperationsAgain() async throws {
        let manager = ModuleManager()
        let store = ReloadNotesStore()
        manager.provide(store, as: ReloadNotesStore.self)
        try manager.register(ReloadNotesModule.self)
        try await manager.initiator.start()
        let before = try manager.bridge.resolve(ReloadNotes.self)
        #expect(before.notes == ["first", "second"])

        let (released, startup) = try await manager.reloadModule("test.reload.notes")
        #expect(released == ["test.reload.notes"])
        #expect(startup.operations.map(\.identifier) == ["test.reload.notes.load"])
        #expect(startup.isSuccessful, "\(startup)")
        let after = try manager.bridge.resolve(ReloadNotes.self)
        #expect(after as AnyObject !== before as AnyObject, "a fresh instance")
        #expect(after.notes == ["first", "second"], "the reloaded module lost the state its startup operation loads")
        #expect(store.loads.withLock { $0 } == 2)
    }

    @Test func reloadingAnUnknownModuleThrowsAndRunsNothing() async throws {
        let manager = ModuleManager()
        let error = await #expect(throws: ResolutionError.self) { try await manager.reloadModule("test.reload.nowhere") }
        #expect(error?.code == .unknownModule)
    }
}
