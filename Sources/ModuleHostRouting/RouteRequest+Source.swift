import ModuleHost

extension RouteRequest {
    /// Where a link comes from, which decides what it may open.
    public enum Source: String, Sendable, Hashable, Codable {
        /// From the app itself (a module, the shell's prompt): any enabled route, with the in-app or an external scheme.
        case inApp
        /// From another program (the way a system hands an app a link): only routes marked external, and only with an
        /// external scheme. A path that names no route is refused like one that is not external.
        case external
    }
}
