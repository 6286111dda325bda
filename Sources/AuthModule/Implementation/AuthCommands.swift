import AuthInterface
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost

/// The AuthModule's commands: `login <user>`, `logout`, `whoami`.
enum AuthCommands {
    static let all: [ModuleCommand] = [
        ModuleCommand("login", usage: "login <user>",
                      summary: "log in (the password is read without echo on a terminal, else from the next line)",
                      readsSecretLine: true, run: logIn),
        ModuleCommand("logout", summary: "end the session", run: logOut),
        ModuleCommand("whoami", summary: "show who is logged in", run: whoami),
    ]

    /// Asks for the password only once the call can succeed; in a script the host drops the password line when
    /// this fails first (the command declares `readsSecretLine`), so it is never run or echoed as the next command.
    @Sendable
    static func logIn(_ context: ModuleCommand.Context) async throws -> ModuleCommand.Output {
        let username = try context.singleArgument(usage: "login <user>")
        if !context.manager.bridge.provides(AuthService.self) {
            throw ModuleCommandError(.moduleUnavailable, "login: no module provides AuthService")
        }
        // Someone is logged in: a usage error, not a failed authentication; no password is asked.
        if let auth = try? context.manager.bridge.resolveIfProvided(AuthService.self), let current = auth.state.user {
            throw Self.someoneLoggedIn(current, requested: username)
        }
        guard let password = await context.io.readSecret(prompt: "Password for \(username): ") else {
            throw ModuleCommandError(.inputEnded, "login \(username): no password was read (the input ended or was interrupted)")
        }
        let auth = try context.manager.bridge.resolve(AuthService.self)
        do {
            let user = try await auth.logIn(username: username, password: password)
            return .text("Logged in as \(user.displayName) (\(user.username)).", value: user)
        } catch where error.code == .alreadyAuthenticated {
            // Logged in meanwhile (by another task of this shell).
            throw ModuleCommandError(.usage, "login \(username): \(error.message)")
        } catch {
            let code: ModuleCommandError.Code = [.unknownUser, .wrongPassword].contains(error.code) ? .permissionDenied : .failed
            throw ModuleCommandError(code, error.message)
        }
    }

    private static func someoneLoggedIn(_ current: AuthenticatedUser, requested: String) -> ModuleCommandError {
        ModuleCommandError(.usage, "login \(requested): \(current.displayName) (\(current.username)) is logged in; log out first")
    }

    @Sendable
    static func logOut(_ context: ModuleCommand.Context) async throws -> ModuleCommand.Output {
        guard context.arguments.isEmpty else { throw ModuleCommandError(.usage, "usage: logout") }
        let auth = try context.manager.bridge.resolve(AuthService.self)
        guard let user = auth.state.user else { return .text("Nobody is logged in.") }
        do {
            try await auth.logOut()
        } catch {
            // Not revoked: saying "Logged out" would be a lie about the next run.
            throw ModuleCommandError(.failed, "logout: \(error.message)")
        }
        return .text("Logged out \(user.username).")
    }

    /// `whoami`'s structured output: the user, or why nobody is logged in.
    struct Identity: Encodable, Sendable {
        let authenticated: Bool
        let user: AuthenticatedUser?
        let reason: NotAuthenticatedReason?
    }

    @Sendable
    static func whoami(_ context: ModuleCommand.Context) async throws -> ModuleCommand.Output {
        guard context.arguments.isEmpty else { throw ModuleCommandError(.usage, "usage: whoami") }
        switch try context.manager.bridge.resolve(AuthService.self).state {
        case .authenticated(let user):
            return ModuleCommand.Output(
                text: "\(user.displayName) (\(user.username)), session until \(user.expiresAt.formatted(.iso8601))",
                value: Identity(authenticated: true, user: user, reason: nil))
        case .notAuthenticated(let reason):
            let why = reason.map { " (\($0.rawValue))" } ?? ""
            return .text("Not logged in\(why).", value: Identity(authenticated: false, user: nil, reason: reason))
        }
    }
}
