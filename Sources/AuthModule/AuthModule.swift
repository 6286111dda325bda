import AuthInterface
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost

/// Log-in with salted password hashes, sessions that persist across runs, and the host's user session.
///
/// Other modules use ``AuthInterface/AuthService`` through the bridge, or learn who is signed in from the host's
/// ``ModuleHost/SessionModuleProtocol``; the implementation stays internal. A log-in (or a session restored at
/// startup) begins the host's user session, a log-out or expiry ends it.
public final class AuthModule: ConfigurableModule, StartupOperationsProviding, ModuleCommandsProviding, ModuleRoutesProviding {
    /// The manifest `config` object.
    public typealias Configuration = AuthConfiguration

    /// `com.modulehost.auth`.
    public static let moduleIdentifier: ModuleIdentifier = .auth
    /// Provides ``AuthInterface/AuthService``.
    public static let providedServices: [ProvidedService] = [
        .service(AuthService.self, from: AuthModule.self) { $0.service },
    ]
    /// Restores the persisted session before anything else (`.high`).
    public static let startupOperations: [ModuleStartupOperation] = [
        ModuleStartupOperation("auth.restore-session", priority: .high) { manager in
            let module = try manager.bridge.resolve(.auth, as: AuthModule.self)
            try module.restoreSession()
        },
    ]
    /// `login <user>`, `logout` and `whoami`.
    public static var commands: [ModuleCommand] { AuthCommands.all }
    /// `/auth/user`, in-app only.
    public static var routes: [ModuleRoute] { AuthRoutes.all }

    /// Rejects `/auth/user` while nobody is logged in.
    public func decision(for request: RouteRequest) async -> RouteDecision {
        AuthRoutes.decision(for: request, state: service.state)
    }

    private let authenticator = Locked<Authenticator?>(nil)
    private let environment = Locked<HostEnvironment>(.standard)

    /// Creates the module; the authenticator is built in `moduleDidLoad` from the configuration.
    public init() {}

    /// The service; resolving it before the module loaded is impossible, as the bridge loads first.
    var service: any AuthService {
        authenticator.withLock { $0 } ?? UnavailableAuthService()
    }

    /// Builds the authenticator from the configuration and the host's state directory.
    public func moduleDidLoad(with manager: any ModuleContext) throws {
        let configuration = try manager.configuration(for: Self.self)
        let environment = try manager.bridge.resolveIfProvided(HostEnvironment.self) ?? .standard
        let resolved = try configuration.resolve(baseDirectory: environment.manifestDirectory,
                                                 defaultStateDirectory: environment.stateDirectory)
        let authenticator = Authenticator(configuration: resolved, onSessionChange: { [weak manager] change in
            // The authenticator calls this in order, with no lock held.
            manager.map(change.apply(to:))
        })
        self.environment.withLock { $0 = environment }
        self.authenticator.withLock { $0 = authenticator }
        // Reloaded while a session is active (`releaseModule`): pick the saved session up again, and end the host's
        // session if it cannot be, so no module keeps believing in a user this module no longer knows.
        if let active = manager.session {
            report(authenticator.restoreSession())
            if authenticator.state.user?.username != active.userID { manager.endUserSession(with: active.userID) }
        }
    }

    /// Reports what the authenticator noticed; the persisted session stays for the next run.
    public func moduleWillUnload() {
        let authenticator = authenticator.withLock { $0 }
        authenticator.map { report($0.takeDiagnostics()) }
    }

    /// Restores the persisted session, reporting why one was not restored.
    func restoreSession() throws {
        guard let authenticator = authenticator.withLock({ $0 }) else { throw UnavailableAuthService.error }
        report(authenticator.restoreSession())
    }

    private func report(_ diagnostics: [AuthDiagnostic]) {
        let environment = environment.withLock { $0 }
        for diagnostic in diagnostics {
            let severity: HostNotice.Severity = diagnostic.severity == .warning ? .warning : .info
            environment.report(HostNotice(severity, module: .auth, diagnostic.message))
        }
    }
}

/// Stands in if the service were asked for before `moduleDidLoad`; every call fails clearly.
private final class UnavailableAuthService: AuthService {
    static let error = AuthError(.invalidConfiguration, "the AuthModule has not finished loading")
    func logIn(username: String, password: String) async throws(AuthError) -> AuthenticatedUser { throw Self.error }
    func logOut() async {}
    var state: AuthenticationModel { .notAuthenticated(nil) }
    func stateChanges() -> AsyncStream<AuthenticationModel> {
        AsyncStream { $0.yield(.notAuthenticated(nil)); $0.finish() }
    }
}
