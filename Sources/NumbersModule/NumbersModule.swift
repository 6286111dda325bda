import AuthModule
import Foundation
import ModuleHost

extension ModuleIdentifier {
    /// The NumbersModule's identifier.
    public static let numbers: ModuleIdentifier = "com.modulehost.numbers"
}

/// Facts about numbers, with a per-user history; it learns the user from `AuthService` through the bridge
/// and works anonymously when no module provides it.
public final class NumbersModule: ConfigurableModule, StartupOperationsProviding, AuthSessionObserver {
    /// The manifest `config` object.
    public typealias Configuration = NumbersConfiguration

    /// `com.modulehost.numbers`.
    public static let moduleIdentifier: ModuleIdentifier = .numbers
    /// Provides ``NumberFactService``.
    public static let providedServices: [ProvidedService] = [
        .service(NumberFactService.self, from: NumbersModule.self) { $0.desk },
    ]
    /// Warms the prime table (`.asyncHigh`) and loads the history after the session is restored.
    public static let startupOperations: [ModuleStartupOperation] = [
        ModuleStartupOperation("numbers.warm-primes", priority: .asyncHigh, failurePolicy: .optional) { manager in
            try manager.bridge.resolve(.numbers, as: NumbersModule.self).desk.warmUp()
        },
        ModuleStartupOperation(
            "numbers.load-history", priority: .asyncHigh, optionalDependencies: ["auth.restore-session"], failurePolicy: .optional
        ) { manager in
            let module = try manager.bridge.resolve(.numbers, as: NumbersModule.self)
            let user = try manager.bridge.resolveIfProvided(AuthService.self)?.state.user?.username
            module.desk.loadHistory(currentUser: user)
        },
    ]

    let desk = FactDesk()

    /// Creates the module; configuration happens in `moduleDidLoad`.
    public init() {}

    /// Reads the configuration and picks the state directory.
    public func moduleDidLoad(with manager: ModuleManager) throws {
        let configuration = try manager.configuration(for: Self.self)
        let environment = try manager.bridge.resolveIfProvided(HostEnvironment.self) ?? .standard
        let directory = configuration.stateDirectory.map {
            URL(fileURLWithPath: $0, relativeTo: environment.manifestDirectory).standardizedFileURL
        } ?? environment.stateDirectory
        desk.configure(configuration, stateDirectory: directory) { message in
            environment.report(HostNotice(.warning, module: .numbers, message))
        }
    }

    /// Switches the history to the user who logged in.
    public func sessionDidAuthenticate(with user: AuthenticatedUser) {
        desk.setCurrentUser(user.username)
    }

    /// Switches the history back to anonymous use.
    public func sessionDidDeauthenticate(with user: AuthenticatedUser) {
        desk.setCurrentUser(nil)
    }
}

