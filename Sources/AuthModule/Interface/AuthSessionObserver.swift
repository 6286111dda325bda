/// Adopted by modules that want to be told when a session starts or ends.
///
/// The host broadcasts these calls to all observers; the calls may arrive on any thread.
public protocol AuthSessionObserver: AnyObject, Sendable {
    /// A session started: a successful log-in or a restored session at startup.
    func sessionDidAuthenticate(with user: AuthenticatedUser)
    /// A session ended: log-out or expiry.
    func sessionDidDeauthenticate(with user: AuthenticatedUser)
}
