#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
import ModuleHostRouting
import ModuleHostState
import NumbersInterface

/// Facts about numbers, with a per-user history; it learns who is signed in from the host's user session
/// (``ModuleHost/SessionModuleProtocol``), so it knows no module that signs users in, and works anonymously
/// when nobody is.
public final class NumbersModule: ConfigurableModule, ModuleRouteHandler, SessionModuleProtocol {
    /// The manifest `config` object.
    public typealias Configuration = NumbersConfiguration

    /// `com.modulehost.numbers`.
    public static let moduleIdentifier: ModuleIdentifier = .numbers
    /// Provides ``NumbersInterface/NumberFactService``.
    public static let providedServices: [ProvidedService] = [
        .service(NumberFactService.self, from: NumbersModule.self) { $0.desk },
    ]
    /// Two startup operations: it warms the prime table (`.asyncHigh`) and loads the history after a saved
    /// session is restored. The commands `fact <n>`, `random` and `history`; the routes `/numbers/fact/:n` and
    /// `/numbers/lucky` (both external) and `/numbers/history` (in-app only).
    public static let contributions: [Contribution] = [
        .startupOperation(ModuleStartupOperation("numbers.warm-primes", priority: .asyncHigh, failurePolicy: .optional) { manager in
            try manager.bridge.resolve(.numbers, as: NumbersModule.self).desk.warmUp()
        }),
        .startupOperation(ModuleStartupOperation(
            "numbers.load-history", priority: .asyncHigh, optionalDependencies: ["auth.restore-session"], failurePolicy: .optional
        ) { manager in
            try manager.bridge.resolve(.numbers, as: NumbersModule.self).desk.loadHistory()
        }),
    ] + NumbersCommands.all.map(Contribution.command) + NumbersRoutes.all.map(Contribution.route)

    /// Redirects `/numbers/lucky` to a fact; passes the rest.
    public func decision(for request: RouteRequest) async -> RouteRequest.Decision {
        NumbersRoutes.decision(for: request)
    }

    let desk = FactDesk()

    /// Creates the module: reads the configuration and picks the state directory.
    public init(context: any ModuleContext) throws {
        let configuration = try context.configuration(for: Self.self)
        let environment = try context.bridge.resolveIfProvided(HostEnvironment.self) ?? .standard(folderName: ".app-shell")
        // A configured folder holds the history itself; otherwise the module's own folder in the host's state folder
        // does, and a history an earlier version left in the state folder itself is read from there and moved.
        let directory: URL, hostDirectory: URL?
        if let configured = configuration.stateDirectory {
            directory = URL(fileURLWithPath: configured, relativeTo: environment.manifestDirectory).standardizedFileURL
            hostDirectory = nil
        } else {
            directory = try environment.folder(of: .numbers)
            hostDirectory = environment.stateDirectory
        }
        // What the history file reports of its folders (one readable by others, used as it is) is an info notice.
        desk.configure(configuration, stateDirectory: directory, hostDirectory: hostDirectory, owner: context,
                       notice: { environment.report(HostNotice(.info, module: .numbers, $0)) }) { message in
            environment.report(HostNotice(.warning, module: .numbers, message))
        }
    }

    /// Switches the history to the user who signed in.
    public func sessionDidAuthenticate(with session: UserSession) {
        desk.setCurrentUser(session.userID)
    }

    /// Switches the history back to anonymous use.
    public func sessionDidDeauthenticate(with session: UserSession) {
        desk.setCurrentUser(nil)
    }
}
