/// A module that is told when a user session begins and ends (SwiftyArchitecture's `SessionModuleProtocol`).
///
/// The host tells every *loaded* module that adopts it, with no lock held:
/// - when a session begins or ends (``ModuleContext/beginUserSession(with:startedAt:)``,
///   ``ModuleContext/endUserSession(with:)``), on the thread that changed it;
/// - when the module loads while a session is active: ``sessionDidAuthenticate(with:)`` right after
///   ``ModuleProtocol/moduleDidLoad(with:)``, before anyone can resolve the module.
///
/// No module is instantiated just to be told. Calls to one module never overlap and always alternate,
/// authenticate then deauthenticate, so the module ends up told the current session; a session that began and
/// ended while the module was still being told about an earlier change may be skipped. A released or unloaded
/// module is detached before ``ModuleProtocol/moduleWillUnload()``; a call another thread had already begun to
/// make is not waited for, so it may still run once, alongside or just after `moduleWillUnload`.
public protocol SessionModuleProtocol: ModuleProtocol {
    /// A session began: a user signed in, or a saved session was restored.
    func sessionDidAuthenticate(with session: UserSession)
    /// The session the module was last told about ended: the user signed out, or it expired.
    func sessionDidDeauthenticate(with session: UserSession)
}

extension SessionModuleProtocol {
    /// The module itself, for the host.
    public var _sessionObserver: (any SessionModuleProtocol)? { self }
}
