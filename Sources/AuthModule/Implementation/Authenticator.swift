import AuthInterface
import ModuleHost
import Foundation

/// The `AuthService` implementation: checks credentials, keeps the session, persists it and
/// reports changes.
///
/// Thread-safe: all mutable state is behind one `Locked`, so `state` can be read synchronously
/// from any thread. Slow work (crypt(3)) runs outside the lock; file I/O for the session runs
/// inside it so that the persisted and the in-memory session never disagree.
///
/// Changes are reported to every `stateChanges()` stream and, in order, to `onSessionChange`
/// (called without any lock held, so it may call back into the authenticator).
final class Authenticator: AuthService {
    typealias Now = @Sendable () -> Date

    private let users: UserDirectory
    private let store: SessionStore
    private let sessionLifetime: TimeInterval
    private let now: Now
    private let notifier: ChangeNotifier
    private let protected = Locked(Protected())

    private struct ActiveSession: Sendable {
        let user: AuthenticatedUser
        let token: SessionToken
    }

    private enum Phase: Sendable {
        case signedOut(NotAuthenticatedReason?)
        case signedIn(ActiveSession)

        var model: AuthenticationModel {
            switch self {
            case .signedOut(let reason): .notAuthenticated(reason)
            case .signedIn(let session): .authenticated(session.user)
            }
        }
    }

    private struct Protected: Sendable {
        var phase = Phase.signedOut(nil)
        var streams: [UInt64: AsyncStream<AuthenticationModel>.Continuation] = [:]
        var nextStreamID: UInt64 = 0
        var expiryTask: Task<Void, Never>?
        var pendingDiagnostics: [AuthDiagnostic] = []
    }

    /// - Parameters:
    ///   - configuration: the validated configuration.
    ///   - now: the clock used for session times and expiry (injectable for tests).
    ///   - onSessionChange: told of every session start and end, in order.
    ///   - storeFault: a failure to inject into session writes (tests only).
    init(
        configuration: ResolvedAuthConfiguration,
        now: @escaping Now = { Date() },
        onSessionChange: @escaping @Sendable (SessionChange) -> Void = { _ in },
        storeFault: SessionStore.Fault? = nil
    ) {
        self.users = configuration.users
        self.store = SessionStore(directory: configuration.stateDirectory, fault: storeFault)
        self.sessionLifetime = configuration.sessionLifetime
        self.now = now
        self.notifier = ChangeNotifier(handler: onSessionChange)
    }

    /// Validates and resolves `configuration` (see `AuthConfiguration.resolve`), then creates
    /// the authenticator. Does not restore a stored session; call `restoreSession()` for that.
    convenience init(
        configuration: AuthConfiguration,
        baseDirectory: URL,
        workingDirectory: URL? = nil,
        now: @escaping Now = { Date() },
        onSessionChange: @escaping @Sendable (SessionChange) -> Void = { _ in }
    ) throws(AuthError) {
        let resolved = try configuration.resolve(baseDirectory: baseDirectory, workingDirectory: workingDirectory)
        self.init(configuration: resolved, now: now, onSessionChange: onSessionChange)
    }

    deinit {
        let (streams, task) = protected.withLock { p in
            let streams = Array(p.streams.values)
            p.streams.removeAll()
            let task = p.expiryTask
            p.expiryTask = nil
            return (streams, task)
        }
        task?.cancel()
        for stream in streams {
            stream.finish()
        }
    }

    /// The state directory's session file.
    var sessionFileURL: URL { store.fileURL }

    /// The resolved state directory.
    var stateDirectory: URL { store.directory }

    // MARK: AuthService

    var state: AuthenticationModel {
        defer { notifier.drain() }
        return protected.withLock { p in
            expireIfNeeded(&p)
            return p.phase.model
        }
    }

    func stateChanges() -> AsyncStream<AuthenticationModel> {
        let (stream, continuation) = AsyncStream.makeStream(of: AuthenticationModel.self, bufferingPolicy: .unbounded)
        let id = protected.withLock { p in
            p.nextStreamID += 1
            return p.nextStreamID
        }
        continuation.onTermination = { [weak self] _ in
            self?.protected.withLock { p in _ = p.streams.removeValue(forKey: id) }
        }
        protected.withLock { p in
            expireIfNeeded(&p)
            p.streams[id] = continuation
            continuation.yield(p.phase.model)
        }
        notifier.drain()
        return stream
    }

    func logIn(username: String, password: String) async throws(AuthError) -> AuthenticatedUser {
        if let current = state.user {
            throw Self.alreadyAuthenticated(current)
        }
        let entry = try users.authenticate(username: username, password: password)

        let token = SessionToken.generate()
        // Whole seconds, so the times survive the JSON round trip exactly.
        let createdAt = Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down))
        let expiresAt = Date(timeIntervalSince1970: createdAt.timeIntervalSince1970 + sessionLifetime.rounded(.up))
        guard let fingerprint = StoredSession.fingerprint(passwordHash: entry.passwordHash, token: token) else {
            throw AuthError(.hashingUnavailable, "the system's crypt(3) could not fingerprint the session")
        }
        let user = AuthenticatedUser(
            username: entry.username,
            displayName: entry.displayName,
            authenticatedAt: createdAt,
            expiresAt: expiresAt
        )
        let stored = StoredSession(
            username: entry.username,
            token: token,
            createdAt: createdAt,
            expiresAt: expiresAt,
            credentialFingerprint: fingerprint
        )

        defer { notifier.drain() }
        try protected.withLock { (p: inout Protected) throws(AuthError) in
            expireIfNeeded(&p)
            if case .signedIn(let active) = p.phase {
                throw Self.alreadyAuthenticated(active.user)
            }
            // Persist first: if saving fails nothing changes.
            try store.save(stored)
            begin(ActiveSession(user: user, token: token), in: &p)
        }
        return user
    }

    func logOut() async {
        endSession()
    }

    // MARK: Host integration

    /// Ends the current session (if any) and deletes the session file. Returns problems, e.g.
    /// when the file could not be deleted; they are also kept for `takeDiagnostics()`.
    @discardableResult
    func endSession() -> [AuthDiagnostic] {
        defer { notifier.drain() }
        return protected.withLock { p in
            expireIfNeeded(&p)
            guard case .signedIn(let active) = p.phase else { return [] }
            return end(active, reason: .loggedOut, in: &p)
        }
    }

    /// Restores the session persisted by an earlier run, if there is a valid one. Problems
    /// (corrupted, foreign, expired or revoked session files) are returned, never thrown; the
    /// state then stays not authenticated. Does nothing while a session is active.
    func restoreSession() -> [AuthDiagnostic] {
        defer { notifier.drain() }
        if state.isAuthenticated { return [] }

        store.removeStaleTemporaryFiles()
        let path = store.fileURL.path
        let session: StoredSession
        switch store.load() {
        case .missing:
            return []
        case .rejected(let diagnostic, let isOurs):
            return [diagnostic] + (isOurs ? discardSessionFile() : [])
        case .loaded(let loaded):
            session = loaded
        }

        guard let entry = users.entry(for: session.username) else {
            let diagnostic = AuthDiagnostic(
                .warning,
                .sessionUserUnknown,
                "the stored session in \(path) belongs to user \"\(session.username)\", who is not configured any more; ignoring it"
            )
            return [diagnostic] + reject(reason: .revoked)
        }
        guard session.matches(passwordHash: entry.passwordHash) else {
            let diagnostic = AuthDiagnostic(
                .warning,
                .sessionCredentialsChanged,
                "the password of user \"\(session.username)\" changed since the stored session was created; please log in again"
            )
            return [diagnostic] + reject(reason: .revoked)
        }
        // The file is ours but not signed: a session may not outlive the configured lifetime, nor start later.
        let claimed = session.expiresAt.timeIntervalSince(session.createdAt)
        guard claimed > 0, claimed <= sessionLifetime.rounded(.up) + 1, session.createdAt <= now().addingTimeInterval(60) else {
            let diagnostic = AuthDiagnostic(
                .warning,
                .sessionFileCorrupted,
                "the stored session of user \"\(session.username)\" claims a lifetime the configuration does not allow; ignoring it"
            )
            return [diagnostic] + reject(reason: .revoked)
        }
        guard now() < session.expiresAt else {
            let diagnostic = AuthDiagnostic(
                .info,
                .sessionExpired,
                "the stored session of user \"\(session.username)\" expired at \(session.expiresAt.formatted(.iso8601)); please log in again"
            )
            return [diagnostic] + reject(reason: .expired)
        }

        let user = AuthenticatedUser(
            username: entry.username,
            displayName: entry.displayName,
            authenticatedAt: session.createdAt,
            expiresAt: session.expiresAt
        )
        let restored = protected.withLock { p in
            guard case .signedOut = p.phase else { return false }
            begin(ActiveSession(user: user, token: session.token), in: &p)
            return true
        }
        guard restored else { return [] }
        return [
            AuthDiagnostic(
                .info,
                .sessionRestored,
                "restored the session of user \"\(user.username)\" (until \(user.expiresAt.formatted(.iso8601)))"
            )
        ]
    }

    /// Checks whether the session has expired and reports it if so. Called automatically by a
    /// timer and whenever the state is read.
    func checkExpiry() {
        defer { notifier.drain() }
        protected.withLock { p in
            expireIfNeeded(&p)
            if case .signedIn(let active) = p.phase {
                scheduleExpiryCheck(at: active.user.expiresAt, in: &p)
            }
        }
    }

    /// Problems found outside `restoreSession()` (e.g. a session file that could not be deleted
    /// at log-out or expiry), oldest first. Each is returned once.
    func takeDiagnostics() -> [AuthDiagnostic] {
        protected.withLock { p in
            defer { p.pendingDiagnostics.removeAll() }
            return p.pendingDiagnostics
        }
    }

    /// The number of live `stateChanges()` streams (for tests).
    var activeStreamCount: Int {
        protected.withLock { $0.streams.count }
    }

    // MARK: Private (called with the lock held unless noted)

    private static func alreadyAuthenticated(_ user: AuthenticatedUser) -> AuthError {
        AuthError(.alreadyAuthenticated, "already logged in as \"\(user.username)\"; log out first")
    }

    private func begin(_ session: ActiveSession, in p: inout Protected) {
        p.phase = .signedIn(session)
        scheduleExpiryCheck(at: session.user.expiresAt, in: &p)
        broadcast(&p)
        notifier.enqueue(.authenticated(session.user))
    }

    /// Ends `active`: updates the state, deletes the session file, reports the change.
    private func end(_ active: ActiveSession, reason: NotAuthenticatedReason, in p: inout Protected) -> [AuthDiagnostic] {
        p.phase = .signedOut(reason)
        p.expiryTask?.cancel()
        p.expiryTask = nil
        broadcast(&p)
        notifier.enqueue(.deauthenticated(active.user, reason: reason))
        do {
            try store.delete()
            return []
        } catch {
            let diagnostic = AuthDiagnostic(.warning, .sessionFileNotRemoved, "the session ended but \(error.message)")
            p.pendingDiagnostics.append(diagnostic)
            return [diagnostic]
        }
    }

    private func expireIfNeeded(_ p: inout Protected) {
        guard case .signedIn(let active) = p.phase, active.user.isExpired(at: now()) else { return }
        _ = end(active, reason: .expired, in: &p)
    }

    private func broadcast(_ p: inout Protected) {
        let model = p.phase.model
        for continuation in p.streams.values {
            continuation.yield(model)
        }
    }

    private func scheduleExpiryCheck(at expiresAt: Date, in p: inout Protected) {
        p.expiryTask?.cancel()
        // At most a day per sleep (then check again), so any date gives a representable Duration.
        let delay = min(max(0, expiresAt.timeIntervalSince(now())) + 0.05, 86_400)
        p.expiryTask = Task { [weak self] in
            try? await Task.sleep(for: .seconds(delay))
            guard !Task.isCancelled else { return }
            self?.checkExpiry()
        }
    }

    /// Called without the lock: a stored session was rejected. Deletes the file and, when the
    /// state has no reason yet, records why.
    private func reject(reason: NotAuthenticatedReason) -> [AuthDiagnostic] {
        let diagnostics = discardSessionFile()
        protected.withLock { p in
            if case .signedOut(nil) = p.phase {
                p.phase = .signedOut(reason)
                broadcast(&p)
            }
        }
        return diagnostics
    }

    /// Called without the lock: deletes an unusable session file of ours.
    private func discardSessionFile() -> [AuthDiagnostic] {
        do {
            try store.delete()
            return []
        } catch {
            return [AuthDiagnostic(.warning, .sessionFileNotRemoved, "cannot remove the unusable session file: \(error.message)")]
        }
    }
}

/// Delivers session changes to a handler one at a time and in the order they were enqueued,
/// without holding the authenticator's lock during the call.
private final class ChangeNotifier: Sendable {
    private struct Queue {
        var pending: [SessionChange] = []
        var draining = false
    }

    private let handler: @Sendable (SessionChange) -> Void
    private let queue = Locked(Queue())

    init(handler: @escaping @Sendable (SessionChange) -> Void) {
        self.handler = handler
    }

    func enqueue(_ change: SessionChange) {
        queue.withLock { $0.pending.append(change) }
    }

    /// Delivers pending changes unless another thread is already doing so (it will deliver
    /// ours too). Must be called without the authenticator's lock held.
    func drain() {
        let shouldDrain = queue.withLock { q in
            if q.draining { return false }
            q.draining = true
            return true
        }
        guard shouldDrain else { return }
        while let next = queue.withLock({ q -> SessionChange? in
            if q.pending.isEmpty {
                q.draining = false
                return nil
            }
            return q.pending.removeFirst()
        }) {
            handler(next)
        }
    }
}

// Reflection shows the public state only, never the token.
extension Authenticator: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    var description: String {
        let model = protected.withLock { $0.phase.model }
        return "Authenticator(state: \(model), stateDirectory: \(store.directory.path))"
    }

    var debugDescription: String { description }

    var customMirror: Mirror {
        let model = protected.withLock { $0.phase.model }
        return Mirror(self, children: ["state": model, "stateDirectory": store.directory.path], displayStyle: .class)
    }
}
