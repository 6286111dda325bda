import Foundation
import Testing
import TestSupport
import ModuleHost
import ModuleHostState

/// A module that keeps what the host gave it, as constructor injection intends: its context, and a state file.
/// `moduleWillUnload` writes the file, to show that an instance may still save while it is being unloaded.
final class NotesModule: ConfigurableModule, SessionModuleProtocol {
    struct Configuration: Decodable, Sendable { var title: String }
    static let moduleIdentifier: ModuleIdentifier = "com.example.notes"
    static let providedServices: [ProvidedService] = []

    let context: any ModuleContext
    let file: StateFile

    init(context: any ModuleContext) throws {
        self.context = context
        let environment = try context.bridge.resolve(HostEnvironment.self)
        file = try environment.stateFile("notes.json", of: context)
    }

    func moduleWillUnload() {
        try? file.write(Data("saved on unload".utf8))
    }

    func sessionDidAuthenticate(with session: UserSession) {}
    func sessionDidDeauthenticate(with session: UserSession) {}
}

/// What code that still holds a module instance sees after the host released it: what the host gave that instance
/// (its context and its files) refuses with a clear error, while the instance loaded afresh works. So an old and a
/// new instance never both write one file.
@Suite("A released instance")
struct ReleasedInstanceTests {
    private struct Host: ~Copyable {
        let directory: TemporaryDirectory
        let manager = ModuleManager()

        init() throws {
            let directory = try TemporaryDirectory()
            manager.provide(HostEnvironment(stateDirectory: directory.url.appendingPathComponent("state"),
                                            manifestDirectory: directory.url), as: HostEnvironment.self)
            try manager.register(NotesModule.self, config: .init(title: "notes"))
            self.directory = directory
        }

        func notes() throws -> NotesModule {
            try manager.bridge.resolve(NotesModule.moduleIdentifier, as: NotesModule.self)
        }
    }

    private func expectReleased(_ body: () throws(ResolutionError) -> Void) {
        let error = #expect(throws: ResolutionError.self) { try body() }
        #expect(error?.code == .moduleReleased)
        #expect(error?.message.contains("com.example.notes") == true, "\(String(describing: error))")
    }

    @Test func aLoadedInstancesContextAndFileWork() throws {
        let host = try Host()
        let notes = try host.notes()
        try notes.file.write(Data("first".utf8))
        #expect(try notes.file.read() == Data("first".utf8))
        #expect(try notes.context.configuration(for: NotesModule.self).title == "notes")
        #expect(try notes.context.bridge.resolve(HostEnvironment.self).manifestDirectory == host.directory.url)
        _ = try notes.context.beginUserSession(with: "ada")
        #expect(notes.context.session?.userID == "ada")
        #expect(host.manager.session?.userID == "ada")
    }

    @Test func afterAReleaseTheHeldInstancesFileRefusesAndTheNewInstancesWrites() throws {
        let host = try Host()
        let old = try host.notes()
        try old.file.write(Data("old".utf8))
        try host.manager.releaseModule(NotesModule.moduleIdentifier)
        // The unload hook could still save.
        let fresh = try host.notes()
        #expect(fresh !== old)
        #expect(try fresh.file.read() == Data("saved on unload".utf8))

        let write = #expect(throws: StateFileError.self) { try old.file.write(Data("stale".utf8)) }
        #expect(write?.code == .ownerReleased)
        #expect(write?.message.contains("com.example.notes") == true)
        #expect((#expect(throws: StateFileError.self) { _ = try old.file.read() })?.code == .ownerReleased)
        #expect((#expect(throws: StateFileError.self) { try old.file.remove() })?.code == .ownerReleased)

        try fresh.file.write(Data("new".utf8))
        #expect(try fresh.file.read() == Data("new".utf8))
    }

    @Test func afterAReleaseTheHeldInstancesContextRefuses() throws {
        let host = try Host()
        let old = try host.notes()
        host.manager.beginUserSession(with: "ada")
        try host.manager.releaseModule(NotesModule.moduleIdentifier)
        let context = old.context

        expectReleased { () throws(ResolutionError) in _ = try context.bridge.resolve(HostEnvironment.self) }
        expectReleased { () throws(ResolutionError) in _ = try context.bridge.resolveIfProvided(HostEnvironment.self) }
        expectReleased { () throws(ResolutionError) in _ = try context.bridge.resolve(NotesModule.moduleIdentifier) }
        expectReleased { () throws(ResolutionError) in _ = try context.configuration(for: NotesModule.self) }
        expectReleased { () throws(ResolutionError) in _ = try context.beginUserSession(with: "mallory") }
        expectReleased { () throws(ResolutionError) in _ = try context.endUserSession(with: "ada") }
        expectReleased { () throws(ResolutionError) in _ = try context.releaseModule(NotesModule.moduleIdentifier) }
        #expect(context.session == nil)
        // Nothing the held instance tried reached the host.
        #expect(host.manager.session?.userID == "ada")
        #expect(host.manager.modules.first?.state == .registered)
        // The new instance's context works.
        let fresh = try host.notes()
        #expect(try fresh.context.configuration(for: NotesModule.self).title == "notes")
    }

    @Test func aReloadAndUnloadAllRetireTheOldInstanceToo() async throws {
        let host = try Host()
        let first = try host.notes()
        _ = try await host.manager.reloadModule(NotesModule.moduleIdentifier)
        expectReleased { () throws(ResolutionError) in _ = try first.context.configuration(for: NotesModule.self) }
        let second = try host.notes()
        #expect(second !== first)
        try second.file.write(Data("second".utf8))

        await host.manager.unloadAll()
        #expect((#expect(throws: StateFileError.self) { try second.file.write(Data("late".utf8)) })?.code == .ownerReleased)
        #expect(try host.notes().file.read() == Data("saved on unload".utf8))
    }

    @Test func theManagersOwnContextNamesNoModuleSoItGetsNoStateFile() throws {
        let host = try Host()
        let environment = try host.manager.bridge.resolve(HostEnvironment.self)
        let error = #expect(throws: StateFileError.self) { _ = try environment.stateFile("notes.json", of: host.manager) }
        #expect(error?.code == .invalidName)
    }
}
