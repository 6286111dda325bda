import ModuleHost

/// The bounds the router holds every link to, so a link from another program costs bounded work. The routing
/// article states them; tests in this package read them.
package enum RouteLimits {
    /// The longest link, in bytes.
    package static let urlBytes = 2_048
    /// The longest parameter or query value, in bytes, after percent-decoding.
    package static let parameterBytes = 256
    /// The most path segments a link or a pattern may have.
    package static let segments = 16
    /// The most query items a link may carry.
    package static let queryItems = 32
    /// The most redirects one open follows before it is refused.
    package static let redirects = 8
}
