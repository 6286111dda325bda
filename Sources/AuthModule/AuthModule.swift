import Foundation
import ModuleHost

extension ModuleIdentifier {
    /// The AuthModule's identifier.
    public static let auth: ModuleIdentifier = "com.modulehost.auth"
}

/// Log-in with salted password hashes, sessions that persist across runs, and session broadcasts.
///
/// Other modules use ``AuthService`` through the bridge; the implementation stays internal. Session start
/// and end are broadcast to every loaded module that adopts ``AuthSessionObserver``.
public final class AuthModule: ConfigurableModule, StartupOperationsProviding {
    /// The manifest `config` object.
    public typealias Configuration = AuthConfiguration

    /// `com.modulehost.auth`.
    public static let moduleIdentifier: ModuleIdentifier = .auth
    /// Provides ``AuthService``.
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

    private let authenticator = Locked<Authenticator?>(nil)
    private let environment = Locked<HostEnvironment>(.standard)

    /// Creates the module; the authenticator is built in `moduleDidLoad` from the configuration.
    public init() {}

    /// The service; resolving it before the module loaded is impossible, as the bridge loads first.
    var service: any AuthService {
        authenticator.withLock { $0 } ?? UnavailableAuthService()
    }

    /// Builds the authenticator from the configuration and the host's state directory.
    public func moduleDidLoad(with manager: ModuleManager) throws {
        let configuration = try manager.configuration(for: Self.self)
        let environment = try manager.bridge.resolveIfProvided(HostEnvironment.self) ?? .standard
        let resolved = try configuration.resolve(baseDirectory: environment.manifestDirectory,
                                                 defaultStateDirectory: environment.stateDirectory)
        let authenticator = Authenticator(configuration: resolved, onSessionChange: { [weak manager] change in
            // Broadcast to every loaded module that observes sessions, with no lock held.
            guard let manager else { return }
            for case let observer as any AuthSessionObserver in manager.loadedModules() {
                change.deliver(to: observer)
            }
        })
        self.environment.withLock { $0 = environment }
        self.authenticator.withLock { $0 = authenticator }
    }

    /// Ends the in-memory session's observers; the persisted session stays for the next run.
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
