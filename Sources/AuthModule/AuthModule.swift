import AuthInterface
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
import ModuleHostRouting
import ModuleHostState

/// Log-in with salted password hashes, sessions that persist across runs, and the host's user session.
///
/// Other modules use ``AuthInterface/AuthService`` through the bridge, or learn who is signed in from the host's
/// ``ModuleHost/SessionModuleProtocol``; the implementation stays internal. A log-in (or a session restored at
/// startup) begins the host's user session, a log-out or expiry ends it.
public final class AuthModule: ConfigurableModule, ModuleRouteHandler {
    /// The manifest `config` object.
    public typealias Configuration = AuthConfiguration

    /// `com.modulehost.auth`.
    public static let moduleIdentifier: ModuleIdentifier = .auth
    /// Provides ``AuthInterface/AuthService``.
    public static let providedServices: [ProvidedService] = [
        .service(AuthService.self, from: AuthModule.self) { $0.service },
    ]
    /// A startup operation that restores the persisted session before anything else (`.high`); the commands
    /// `login <user>`, `logout` and `whoami`; the route `/auth/user`, in-app only.
    public static let contributions: [Contribution] = [
        .startupOperation(ModuleStartupOperation("auth.restore-session", priority: .high) { manager in
            try manager.bridge.resolve(.auth, as: AuthModule.self).restoreSession()
        }),
    ] + AuthCommands.all.map(Contribution.command) + AuthRoutes.all.map(Contribution.route)

    /// Rejects `/auth/user` while nobody is logged in.
    public func decision(for request: RouteRequest) async -> RouteRequest.Decision {
        AuthRoutes.decision(for: request, state: service.state)
    }

    private let authenticator: Authenticator
    private let environment: HostEnvironment

    /// Builds the authenticator from the configuration and the host's state directory (constructor injection:
    /// the module is never without one, so nothing stands in before it loads).
    public init(context manager: any ModuleContext) throws {
        let configuration = try manager.configuration(for: Self.self)
        let environment = try manager.bridge.resolveIfProvided(HostEnvironment.self)
            ?? .standard(folderName: AuthConfiguration.defaultStateDirectory)
        let resolved = try configuration.resolve(baseDirectory: environment.manifestDirectory,
                                                 hostStateDirectory: environment.stateDirectory)
        self.environment = environment
        self.authenticator = Authenticator(configuration: resolved, owner: manager, onSessionChange: { [weak manager] change in
            // The authenticator calls this in order, with no lock held.
            manager.map(change.apply(to:))
        })
        // Reloaded while a session is active (`releaseModule`): pick the saved session up again, and end the host's
        // session if it cannot be, so no module keeps believing in a user this module no longer knows.
        if let active = manager.session {
            report(authenticator.restoreSession())
            if authenticator.state.user?.username != active.userID { try manager.endUserSession(with: active.userID) }
        }
    }

    /// The service.
    var service: any AuthService { authenticator }

    /// Reports what the authenticator noticed; the persisted session stays for the next run.
    public func moduleWillUnload() {
        report(authenticator.takeDiagnostics())
    }

    /// Restores the persisted session, reporting why one was not restored.
    func restoreSession() {
        report(authenticator.restoreSession())
    }

    private func report(_ diagnostics: [AuthDiagnostic]) {
        for diagnostic in diagnostics {
            let severity: HostNotice.Severity = diagnostic.severity == .warning ? .warning : .info
            environment.report(HostNotice(severity, module: .auth, diagnostic.message))
        }
    }
}
