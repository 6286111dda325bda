/// The bounds the router holds every link to, so a link from another program costs bounded work.
public enum RouteLimits {
    /// The longest link, in bytes.
    public static let urlBytes = 2_048
    /// The longest parameter or query value, in bytes, after percent-decoding.
    public static let parameterBytes = 256
    /// The most path segments a link or a pattern may have.
    public static let segments = 16
    /// The most query items a link may carry.
    public static let queryItems = 32
    /// The most redirects one open follows before it is refused.
    public static let redirects = 8
}
