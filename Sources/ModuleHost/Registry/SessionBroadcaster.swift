/// Keeps every loaded ``SessionModuleProtocol`` module told the current ``UserSession``.
///
/// Each observer records the session it was last told about. Whoever changes the session, or attaches an
/// observer, brings each observer up to date one call at a time, with no lock held during a call; an observer
/// already being told by another thread is left to that thread, which loops until its observer is current.
/// So calls to one module never overlap and always alternate authenticate, deauthenticate.
final class SessionBroadcaster: Sendable {
    private struct Observer {
        let module: any SessionModuleProtocol
        /// Which attachment this is: once a detached instance is freed, a new one may get its ObjectIdentifier,
        /// so the thread telling an observer checks that it is still the attachment it marked busy.
        let attachment: UInt64
        var told: UserSession?
        var busy = false
    }

    private struct State {
        var current: UserSession?
        var observers: [ObjectIdentifier: Observer] = [:]
        var attachments: UInt64 = 0
    }

    private let state = Locked(State())

    /// The active session, if any.
    var current: UserSession? {
        state.withLock { $0.current }
    }

    /// Begins `session`, ending any other; returns the active session (the existing one when its user already has it).
    func begin(_ session: UserSession) -> UserSession {
        let active: UserSession = state.withLock { state in
            if let current = state.current, current.userID == session.userID { return current }
            state.current = session
            return session
        }
        syncAll()
        return active
    }

    /// Ends the active session if it belongs to `userID`; returns the session that ended.
    func end(userID: String) -> UserSession? {
        let ended: UserSession? = state.withLock { state in
            guard let current = state.current, current.userID == userID else { return nil }
            state.current = nil
            return current
        }
        if ended != nil { syncAll() }
        return ended
    }

    /// Starts telling `module` about sessions, at once if one is active; does nothing for other modules.
    func attach(_ module: any ModuleProtocol) {
        guard let observer = module._sessionObserver else { return }
        let key = ObjectIdentifier(module)
        state.withLock { state in
            state.attachments += 1
            state.observers[key] = Observer(module: observer, attachment: state.attachments)
        }
        sync(key)
    }

    /// Stops telling `module` about sessions.
    func detach(_ module: any ModuleProtocol) {
        _ = state.withLock { $0.observers.removeValue(forKey: ObjectIdentifier(module)) }
    }

    private func syncAll() {
        for key in state.withLock({ Array($0.observers.keys) }) {
            sync(key)
        }
    }

    /// Tells one observer, a call at a time, until it was told the current session.
    private func sync(_ key: ObjectIdentifier) {
        var holding: UInt64?
        while let (module, call, attachment) = nextCall(for: key, holding: holding) {
            holding = attachment
            switch call {
            case .authenticate(let session): module.sessionDidAuthenticate(with: session)
            case .deauthenticate(let session): module.sessionDidDeauthenticate(with: session)
            }
        }
    }

    private enum Call {
        case authenticate(UserSession)
        case deauthenticate(UserSession)
    }

    /// The next call that brings the observer closer to the current session, keeping it marked busy, with the
    /// observer's attachment; `nil` when it is current or gone (and then no longer busy), or when another thread
    /// is telling it (`holding` is the attachment the caller marked busy, if it did).
    private func nextCall(for key: ObjectIdentifier, holding: UInt64?) -> (any SessionModuleProtocol, Call, UInt64)? {
        state.withLock { state in
            guard var observer = state.observers[key],
                  holding == nil ? !observer.busy : holding == observer.attachment else { return nil }
            defer { state.observers[key] = observer }
            if let told = observer.told, told != state.current {
                observer.busy = true
                observer.told = nil
                return (observer.module, .deauthenticate(told), observer.attachment)
            }
            if observer.told == nil, let current = state.current {
                observer.busy = true
                observer.told = current
                return (observer.module, .authenticate(current), observer.attachment)
            }
            observer.busy = false
            return nil
        }
    }
}
