import Foundation
import ModuleHost

/// One call a session module received.
struct SessionCall: Sendable, Equatable, CustomStringConvertible {
    enum Kind: String, Sendable {
        case authenticate = "auth"
        case deauthenticate = "deauth"
    }

    /// The short name of the module's type, such as `SessionTagA`.
    let module: String
    /// The instance that was called (its identity; tests keep instances alive so identities are not reused).
    let instance: ObjectIdentifier
    let kind: Kind
    let session: UserSession

    var description: String { "\(module) \(kind.rawValue) \(session.userID)" }
}

/// Records what the session modules of one manager are told; injected into that manager as a service, so
/// parallel tests share nothing. `hook` runs inside each call (after it is recorded), with no lock held.
final class SessionProbe: Sendable {
    typealias Hook = @Sendable (_ call: SessionCall, _ manager: any ModuleContext) -> Void

    /// How long each call lasts, in microseconds, to widen the window in which overlapping calls would show.
    let callMicroseconds: UInt32
    private let hook: Hook?
    private let log = Locked<[String]>([])
    private let recorded = Locked<[SessionCall]>([])
    private let overlapProblems = Locked<[String]>([])
    private let lateProblems = Locked<[String]>([])
    private let orderProblems = Locked<[String]>([])
    private let loads = Locked(0)

    init(callMicroseconds: UInt32 = 0, hook: Hook? = nil) {
        self.callMicroseconds = callMicroseconds
        self.hook = hook
    }

    /// Loads, unloads and calls, in the order they happened: `load SessionTagA`, `SessionTagA auth alice`.
    var events: [String] { log.withLock { $0 } }
    /// Every call, in the order they began.
    var calls: [SessionCall] { recorded.withLock { $0 } }
    /// Calls that began while another call to the same instance was running.
    var overlaps: [String] { overlapProblems.withLock { $0 } }
    /// Calls that began after the instance's `moduleWillUnload` had begun.
    var callsAfterUnload: [String] { lateProblems.withLock { $0 } }
    /// Calls that did not alternate with the instance's previous call (checked by the instance itself, so
    /// this holds even for instances that are gone and whose identities were reused).
    var outOfOrder: [String] { orderProblems.withLock { $0 } }
    /// How many session modules loaded.
    var loadCount: Int { loads.withLock { $0 } }

    func calls(of instance: AnyObject) -> [SessionCall] {
        let identity = ObjectIdentifier(instance)
        return calls.filter { $0.instance == identity }
    }

    func calls(ofModule name: String) -> [SessionCall] {
        calls.filter { $0.module == name }
    }

    func event(_ text: String) {
        log.withLock { $0.append(text) }
    }

    fileprivate func loaded(_ name: String) {
        loads.withLock { $0 += 1 }
        event("load \(name)")
    }

    fileprivate func received(_ call: SessionCall, depth: Int, afterUnload: Bool, outOfOrder: String?, manager: (any ModuleContext)?) {
        if depth > 1 { overlapProblems.withLock { $0.append("\(call) began during another call to the same instance") } }
        if afterUnload { lateProblems.withLock { $0.append("\(call) began after moduleWillUnload") } }
        if let outOfOrder { orderProblems.withLock { $0.append(outOfOrder) } }
        recorded.withLock { $0.append(call) }
        event(call.description)
        if callMicroseconds > 0 { usleep(callMicroseconds) }
        if let hook, let manager { hook(call, manager) }
    }
}

/// What is wrong with one instance's calls, or `nil`: they must alternate auth, deauth, auth, ..., starting
/// with auth, and each deauth must name the session the auth before it named.
func alternationProblem(in calls: [SessionCall]) -> String? {
    var told: UserSession?
    for (index, call) in calls.enumerated() {
        switch (call.kind, told) {
        case (.authenticate, nil):
            told = call.session
        case (.deauthenticate, let previous?) where previous == call.session:
            told = nil
        default:
            return "call \(index) (\(call)) does not follow \(told.map { "auth \($0.userID)" } ?? "no session"): \(calls)"
        }
    }
    return nil
}

enum SessionTagA {}
enum SessionTagB {}
enum SessionTagC {}
enum SessionTagD {}

/// A session module per tag, registered in code. It resolves the manager's ``SessionProbe`` when it loads and
/// reports every call to it, counting the calls in progress on this instance to detect overlap.
final class SessionObserverModule<Tag>: SessionModuleProtocol {
    static var moduleIdentifier: ModuleIdentifier { ModuleIdentifier(rawValue: "test.session.\(Tag.self)") }
    static var name: String { "\(Tag.self)" }

    private struct State: Sendable {
        var probe: SessionProbe?
        weak var manager: (any ModuleContext)?
        var inCall = 0
        var unloaded = false
        /// The session this instance was last told began, if it was not told it ended since.
        var told: UserSession?
    }

    private let state = Locked(State())

    init(context: any ModuleContext) {}

    func moduleDidLoad(with manager: any ModuleContext) throws {
        let probe = try manager.bridge.resolve(SessionProbe.self)
        state.withLock {
            $0.probe = probe
            $0.manager = manager
        }
        probe.loaded(Self.name)
    }

    func moduleWillUnload() {
        let probe = state.withLock { state in
            state.unloaded = true
            return state.probe
        }
        probe?.event("unload \(Self.name)")
    }

    func sessionDidAuthenticate(with session: UserSession) {
        receive(.authenticate, session)
    }

    func sessionDidDeauthenticate(with session: UserSession) {
        receive(.deauthenticate, session)
    }

    private func receive(_ kind: SessionCall.Kind, _ session: UserSession) {
        let call = SessionCall(module: Self.name, instance: ObjectIdentifier(self), kind: kind, session: session)
        let (probe, manager, depth, unloaded, outOfOrder) = state.withLock { state in
            state.inCall += 1
            var outOfOrder: String?
            switch (kind, state.told) {
            case (.authenticate, nil): state.told = session
            case (.deauthenticate, let told?) where told == session: state.told = nil
            default: outOfOrder = "\(call) after \(state.told.map { "auth \($0.userID)" } ?? "no session")"
            }
            return (state.probe, state.manager, state.inCall, state.unloaded, outOfOrder)
        }
        defer { state.withLock { $0.inCall -= 1 } }
        probe?.received(call, depth: depth, afterUnload: unloaded, outOfOrder: outOfOrder, manager: manager)
    }
}

/// Not a session module: loaded next to session modules, it must simply never be called.
final class SessionBystanderModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.session.bystander"
    init(context: any ModuleContext) {}
}
