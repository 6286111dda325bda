/// The authentication service other modules use.
///
/// Implementations are thread-safe. `state` can be read synchronously from any thread; changes
/// can be observed with `stateChanges()`.
public protocol AuthService: AnyObject, Sendable {
    /// Checks the credentials against the configured users, starts a session and persists it.
    ///
    /// Errors (`AuthError.code`):
    /// - `.unknownUser` / `.wrongPassword`: both carry the same message, "invalid username or
    ///   password", so that callers cannot tell which usernames exist.
    /// - `.alreadyAuthenticated`: a session is active; call `logOut()` first.
    /// - `.storageFailed`: the session could not be saved; nothing changed.
    /// - `.hashingUnavailable`: the platform's crypt(3) cannot verify the configured hashes.
    func logIn(username: String, password: String) async throws(AuthError) -> AuthenticatedUser

    /// Ends the current session (if any) and revokes the persisted one.
    ///
    /// - Throws: `AuthError` (`storageFailed`) when the persisted session could not be revoked: the session has
    ///   ended in this run, but the user is still signed in for the next run.
    func logOut() async throws(AuthError)

    /// The current state. An expired session is reported as `.notAuthenticated(.expired)`.
    var state: AuthenticationModel { get }

    /// A new stream that first yields the current state and then every change. The stream ends
    /// when the consumer stops iterating (or drops it) or when the service goes away.
    func stateChanges() -> AsyncStream<AuthenticationModel>
}
