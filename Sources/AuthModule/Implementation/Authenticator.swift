import AuthInterface
import ModuleHost
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `AuthService` implementation: checks credentials, keeps the session, persists it and
/// reports changes.
///
/// Thread-safe: the session is behind one `Locked` (the open streams behind ``StateStreams``' own, taken
/// only inside it), so `state` can be read synchronously from any thread. Slow work (crypt(3)) runs outside
/// the lock; file I/O for the session runs inside it so that the persisted and the in-memory session never
/// disagree.
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
    private let streams: StateStreams
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
        var expiryTask: Task<Void, Never>?
        var pendingDiagnostics: [AuthDiagnostic] = []
    }

    /// - Parameters:
    ///   - configuration: the validated configuration.
    ///   - store: where the session is persisted; by default `session.json` in the configured state directory.
    ///   - streams: the `stateChanges()` streams; by default a registry of the authenticator's own.
    ///   - now: the clock used for session times and expiry.
    ///   - onSessionChange: told of every session start and end, in order.
    ///   - owner: the module instance's context, after whose release the default store's files refuse.
    init(
        configuration: ResolvedAuthConfiguration,
        store: SessionStore? = nil,
        owner: (any ModuleContext)? = nil,
        streams: StateStreams = StateStreams(),
        now: @escaping Now = { Date() },
        onSessionChange: @escaping @Sendable (SessionChange) -> Void = { _ in }
    ) {
        self.users = configuration.users
        self.store = store ?? SessionStore(directory: configuration.stateDirectory, hostDirectory: configuration.hostStateDirectory,
                                           owner: owner)
        self.streams = streams
        self.sessionLifetime = configuration.sessionLifetime
        self.now = now
        self.notifier = ChangeNotifier(handler: onSessionChange)
    }

    deinit {
        protected.withLock { $0.expiryTask }?.cancel()
        streams.finishAll()
    }

    // MARK: AuthService

    var state: AuthenticationModel {
        defer { notifier.drain() }
        return protected.withLock { p in
            expireIfNeeded(&p)
            return p.phase.model
        }
    }

    func stateChanges() -> AsyncStream<AuthenticationModel> {
        defer { notifier.drain() }
        // Under the lock, so that no change falls between the current state and the stream's registration.
        return protected.withLock { p in
            expireIfNeeded(&p)
            return streams.open(startingWith: p.phase.model)
        }
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
            p.pendingDiagnostics += store.takeNotices()
            begin(ActiveSession(user: user, token: token), in: &p)
        }
        return user
    }

    func logOut() async throws(AuthError) {
        let user = state.user
        guard let problem = endSession(reportingLater: false).first else { return }
        let name = user?.username ?? "the user"
        throw AuthError(.storageFailed, "\(name) is logged out of this run, but \(problem.message); \(name) is still signed in "
                        + "for the next run (make the state folder writable and log out again)")
    }

    // MARK: Host integration

    /// Ends the current session (if any) and deletes the session file. Returns problems, e.g.
    /// when the file could not be deleted; unless `reportingLater` is false, they are also kept for
    /// `takeDiagnostics()`.
    @discardableResult
    func endSession(reportingLater: Bool = true) -> [AuthDiagnostic] {
        defer { notifier.drain() }
        return protected.withLock { p in
            expireIfNeeded(&p)
            guard case .signedIn(let active) = p.phase else { return [] }
            return end(active, reason: .loggedOut, in: &p, reportingLater: reportingLater)
        }
    }

    /// Restores the session persisted by an earlier run, if there is a valid one. Problems
    /// (corrupted, foreign, expired or revoked session files) are returned, never thrown; the
    /// state then stays not authenticated. Does nothing while a session is active.
    func restoreSession() -> [AuthDiagnostic] {
        defer { notifier.drain() }
        if state.isAuthenticated { return [] }

        store.removeStaleTemporaryFiles()
        let session: StoredSession
        let loaded = store.load()
        let notices = store.takeNotices()
        switch loaded {
        case .missing:
            return notices
        case .rejected(let diagnostic, let isOurs):
            return notices + [diagnostic] + (isOurs ? discardSessionFile() : [])
        case .loaded(let loaded):
            session = loaded
        }
        do throws(Rejection) {
            return notices + resume(session, as: try validate(session))
        } catch {
            return notices + [error.diagnostic] + reject(reason: error.reason)
        }
    }

    /// Why a stored session is not restored, and the state's reason for it.
    private struct Rejection: Error {
        let diagnostic: AuthDiagnostic
        let reason: NotAuthenticatedReason
    }

    /// The user a stored session stands for, if the user is still configured with the same password and the
    /// session's times are believable and not past.
    private func validate(_ session: StoredSession) throws(Rejection) -> AuthenticatedUser {
        guard let entry = users.entry(for: session.username) else {
            throw Rejection(diagnostic: AuthDiagnostic(
                .warning,
                .sessionUserUnknown,
                "the stored session in \(store.fileURL.path) belongs to user \"\(session.username)\", who is not configured any more; ignoring it"
            ), reason: .revoked)
        }
        guard session.matches(passwordHash: entry.passwordHash) else {
            throw Rejection(diagnostic: AuthDiagnostic(
                .warning,
                .sessionCredentialsChanged,
                "the password of user \"\(session.username)\" changed since the stored session was created; please log in again"
            ), reason: .revoked)
        }
        // Signed by us, yet the configuration may have shortened the lifetime since: a session may not outlive
        // the configured lifetime, nor start later.
        let claimed = session.expiresAt.timeIntervalSince(session.createdAt)
        guard claimed > 0, claimed <= sessionLifetime.rounded(.up) + 1, session.createdAt <= now().addingTimeInterval(60) else {
            throw Rejection(diagnostic: AuthDiagnostic(
                .warning,
                .sessionFileCorrupted,
                "the stored session of user \"\(session.username)\" claims a lifetime the configuration does not allow; ignoring it"
            ), reason: .revoked)
        }
        guard now() < session.expiresAt else {
            throw Rejection(diagnostic: AuthDiagnostic(
                .info,
                .sessionExpired,
                "the stored session of user \"\(session.username)\" expired at \(session.expiresAt.formatted(.iso8601)); please log in again"
            ), reason: .expired)
        }
        return AuthenticatedUser(
            username: entry.username,
            displayName: entry.displayName,
            authenticatedAt: session.createdAt,
            expiresAt: session.expiresAt
        )
    }

    /// Begins the validated stored session, unless a session began meanwhile.
    private func resume(_ session: StoredSession, as user: AuthenticatedUser) -> [AuthDiagnostic] {
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

    /// Ends `active`: updates the state, revokes the session (its key and file), reports the change.
    private func end(_ active: ActiveSession, reason: NotAuthenticatedReason, in p: inout Protected,
                     reportingLater: Bool = true) -> [AuthDiagnostic] {
        p.phase = .signedOut(reason)
        p.expiryTask?.cancel()
        p.expiryTask = nil
        broadcast(&p)
        notifier.enqueue(.deauthenticated(active.user, reason: reason))
        do {
            try store.revoke()
            return []
        } catch {
            let diagnostic = AuthDiagnostic(.warning, .sessionFileNotRemoved, "the saved session could not be revoked: \(error.message)")
            if reportingLater { p.pendingDiagnostics.append(diagnostic) }
            return [diagnostic]
        }
    }

    private func expireIfNeeded(_ p: inout Protected) {
        guard case .signedIn(let active) = p.phase, active.user.isExpired(at: now()) else { return }
        _ = end(active, reason: .expired, in: &p)
    }

    private func broadcast(_ p: inout Protected) {
        streams.yield(p.phase.model)
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
