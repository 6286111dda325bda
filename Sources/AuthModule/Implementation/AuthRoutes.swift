import AuthInterface
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
import ModuleHostRouting

/// The AuthModule's route: the current user (`/auth/user`), in-app only, since who is logged in is not another
/// program's business. The module's handler rejects it while nobody is logged in.
enum AuthRoutes {
    static let all: [ModuleRoute] = [
        ModuleRoute("auth.user", pattern: "/auth/user", summary: "the user who is logged in") { request in
            guard let user = try request.manager.bridge.resolve(AuthService.self).state.user else {
                return .text("Not logged in.")
            }
            return ModuleCommand.Output(
                text: "\(user.displayName) (\(user.username)), session until \(user.expiresAt.formatted(.iso8601))", value: user)
        },
    ]

    /// Rejects `auth.user` while nobody is logged in.
    static func decision(for request: RouteRequest, state: AuthenticationModel) -> RouteRequest.Decision {
        guard request.route == "auth.user", !state.isAuthenticated else { return .pass }
        return .reject(reason: "nobody is logged in; log in first")
    }
}
