import Testing
@testable @_spi(Seed) import ModuleHost
import TestSupport
import ModuleHostTesting

extension ModuleIdentifier {
    static let udlBase: ModuleIdentifier = "test.unload-during-load.base"
    static let udlDependent: ModuleIdentifier = "test.unload-during-load.dependent"
}

/// Required by `UnloadingDependentModule`; records its unload.
final class UnloadDuringLoadBaseModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = .udlBase
    private let recorder = LoadRecorder.Holder()
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        recorder.set(manager.recorder)
        manager.recorder?.record("load base")
    }
    func moduleWillUnload() { recorder.get()?.record("unload base") }
}

/// Calls `unloadAll()` from inside its own load, while it still needs the base it requires.
final class UnloadingDependentModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = .udlDependent
    static let requiredModules: [ModuleIdentifier] = [.udlBase]
    private let recorder = LoadRecorder.Holder()
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        recorder.set(manager.recorder)
        let unloaded = try #require(manager.manager, "the manager behind the context").unloadAllNow()
        manager.recorder?.record("unloaded during load: \(unloaded.map(\.rawValue))")
        // The base must still be the loaded instance this module uses.
        _ = try manager.bridge.resolve(.udlBase)
        manager.recorder?.record("load dependent")
    }
    func moduleWillUnload() { recorder.get()?.record("unload dependent") }
}

@Suite("Unloading during a load")
struct UnloadDuringLoadTests {
    @Test func unloadAllFromInsideALoadKeepsWhatThatLoadRequires() throws {
        let recorder = LoadRecorder()
        let manager = ModuleManager.forTesting(recorder: recorder)
        try manager.register(UnloadDuringLoadBaseModule.self)
        try manager.register(UnloadingDependentModule.self)

        _ = try manager.bridge.resolve(.udlDependent)
        #expect(recorder.events == ["load base", "unloaded during load: []", "load dependent"])

        // Afterwards, one unload in reverse load order, and the base loaded once.
        #expect(manager.unloadAllNow() == [.udlDependent, .udlBase])
        #expect(recorder.events.suffix(2) == ["unload dependent", "unload base"])
        #expect(recorder.count(of: "load base") == 1)
    }
}
