import Foundation
@testable import ModuleHost
import TestSupport
import ModuleHostTesting

/// What the user session suites share: the observer modules, two start times, and a manager with a
/// ``SessionProbe`` injected.
protocol UserSessionSuite {}

extension UserSessionSuite {
    typealias A = SessionObserverModule<SessionTagA>
    typealias B = SessionObserverModule<SessionTagB>
    typealias C = SessionObserverModule<SessionTagC>
    typealias D = SessionObserverModule<SessionTagD>

    static var t1: Date { Date(timeIntervalSince1970: 1_700_000_000) }
    static var t2: Date { Date(timeIntervalSince1970: 1_700_000_500) }

    /// A manager with `probe` injected and `types` registered in code, in order.
    func manager(_ probe: SessionProbe, _ types: [any ModuleProtocol.Type]) throws -> ModuleManager {
        let manager = ModuleManager.forTesting()
        manager.provide(probe, as: SessionProbe.self)
        for type in types { try register(type, in: manager) }
        return manager
    }

    func register<M: ModuleProtocol>(_ type: M.Type, in manager: ModuleManager) throws {
        try manager.register(type)
    }
}
