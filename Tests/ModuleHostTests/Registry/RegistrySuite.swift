import Foundation
@testable import ModuleHost
import TestSupport
import ModuleHostTesting

/// What the registry suites share: a manager with test modules registered from a manifest, and their states.
protocol RegistrySuite {}

extension RegistrySuite {
    /// A manager with the recorder injected and `types` (test module class names) registered from a manifest.
    func manager(_ types: String..., recorder: LoadRecorder = LoadRecorder()) throws -> ModuleManager {
        let manager = ModuleManager.forTesting(recorder: recorder)
        let list = types.map { "\"ModuleHostTests.\($0)\"" }.joined(separator: ", ")
        try manager.registerModules(from: Data("{\"modules\": [\(list)]}".utf8))
        return manager
    }

    func states(_ manager: ModuleManager) -> [ModuleIdentifier: ModuleDescription.State] {
        Dictionary(uniqueKeysWithValues: manager.modules.map { ($0.identifier, $0.state) })
    }
}
