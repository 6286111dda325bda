import Foundation
@testable import ModuleHost
@testable import ModuleHostRouting
import TestSupport
import ModuleHostTesting

/// What the router suites share: a manager with test route modules registered, the error an open fails with, and a
/// module's state.
protocol RouterSuite {}

extension RouterSuite {
    /// A manager with its own recorder injected and `types` (test module class names) registered; `extra` goes into
    /// the manifest's root, and `entries` replaces the module list when given.
    func manager(_ types: [String] = ["RouteAlphaModule"], extra: String = "", entries: String? = nil,
                 recorder: LoadRecorder = LoadRecorder()) throws -> ModuleManager {
        let manager = ModuleManager()
        manager.provide(recorder, as: LoadRecorder.self)
        let list = entries ?? types.map { "\"ModuleHostRoutingTests.\($0)\"" }.joined(separator: ", ")
        try manager.registerModules(from: Data("{\(extra)\"modules\": [\(list)]}".utf8))
        return manager
    }

    func failure(_ url: String, from source: RouteRequest.Source = .inApp, in manager: ModuleManager) async -> RouteError? {
        do {
            _ = try await manager.router.open(url, from: source)
            return nil
        } catch {
            return error
        }
    }

    func state(of identifier: ModuleIdentifier, in manager: ModuleManager) -> ModuleDescription.State? {
        manager.modules.first { $0.identifier == identifier }?.state
    }
}
