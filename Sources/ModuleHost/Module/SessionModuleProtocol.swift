/// A module that is told when a user session begins and ends (SwiftyArchitecture's `SessionModuleProtocol`).
///
/// Its two calls are requirements of ``ModuleProtocol`` with empty defaults, so the host asks the runtime nothing
/// to find the modules that implement them; adopting this protocol says that the module does. The host tells
/// every *loaded* module, with no lock held:
/// - when a session begins or ends (``ModuleContext/beginUserSession(with:startedAt:)``,
///   ``ModuleContext/endUserSession(with:)``), on the thread that changed it;
/// - when the module loads while a session is active: ``ModuleProtocol/sessionDidAuthenticate(with:)`` right after
///   ``ModuleProtocol/moduleDidLoad(with:)-2t9q2``, before anyone can resolve the module.
///
/// No module is instantiated just to be told. Calls to one module never overlap and always alternate,
/// authenticate then deauthenticate, so the module ends up told the current session; a session that began and
/// ended while the module was still being told about an earlier change may be skipped. A released or unloaded
/// module is detached before ``ModuleProtocol/moduleWillUnload()``; a call another thread had already begun to
/// make is not waited for, so it may still run once, alongside or just after `moduleWillUnload`.
public protocol SessionModuleProtocol: ModuleProtocol {}
