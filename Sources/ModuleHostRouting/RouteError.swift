import ModuleHost

/// Why a link did not open; it names the link, the route and what was expected.
public struct RouteError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure; stable, for code and tests to match on.
    ///
    /// A growable `ErrorCode` of ModuleHost: a `switch` over one needs a `default:`.
    public typealias Code = ErrorCode<RouteError>

    /// The kind of failure.
    public let code: Code
    /// A human explanation.
    public let message: String
    /// The link that failed (the last one, after redirects).
    public let url: String
    /// The route's identifier, when a route was found.
    public let route: String?
    /// The closest route's pattern, for `.routeNotFound`.
    public let suggestion: String?
    /// The links followed, first first, for the redirect codes (a loop ends with the link it came back to).
    public let redirects: [String]
    /// The error that caused this one, such as the one the target threw.
    public let underlyingError: (any Error)?

    init(_ code: Code, url: String, route: String? = nil, _ message: String, suggestion: String? = nil,
         redirects: [String] = [], underlyingError: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.url = url
        self.route = route
        self.suggestion = suggestion
        self.redirects = redirects
        self.underlyingError = underlyingError
    }

    /// The message, then the suggestion and the underlying error when there are any.
    public var description: String {
        var text = message
        if let suggestion { text += "; did you mean \(suggestion)?" }
        if let underlyingError { text += ": \(underlyingError)" }
        return text
    }
}

extension ErrorCode where Domain == RouteError {
    /// The text is not a link: no scheme, a bad character, a bad percent-encoding, an empty path…
    public static var invalidURL: Self { Self(rawValue: "invalidURL") }

    /// The link is longer than 2,048 bytes.
    public static var urlTooLong: Self { Self(rawValue: "urlTooLong") }

    /// The link's scheme is not one this app opens from where the link came from.
    public static var wrongScheme: Self { Self(rawValue: "wrongScheme") }

    /// The link names another host.
    public static var wrongHost: Self { Self(rawValue: "wrongHost") }

    /// No enabled route matches the link's path.
    public static var routeNotFound: Self { Self(rawValue: "routeNotFound") }

    /// The route is in-app only, and the link came from another program.
    public static var notExternal: Self { Self(rawValue: "notExternal") }

    /// A path parameter or query item does not decode, is missing, or is not one the route reads.
    public static var invalidParameter: Self { Self(rawValue: "invalidParameter") }

    /// The route's module could not be loaded.
    public static var moduleUnavailable: Self { Self(rawValue: "moduleUnavailable") }

    /// The route's module rejected the link.
    public static var rejected: Self { Self(rawValue: "rejected") }

    /// A redirect led back to a link already opened.
    public static var redirectLoop: Self { Self(rawValue: "redirectLoop") }

    /// More than 8 redirects.
    public static var tooManyRedirects: Self { Self(rawValue: "tooManyRedirects") }

    /// The route's target threw.
    public static var targetFailed: Self { Self(rawValue: "targetFailed") }

    /// Every code this version knows, in the order they are declared.
    package static var allCases: [Self] {
        [
            .invalidURL, .urlTooLong, .wrongScheme, .wrongHost, .routeNotFound, .notExternal, .invalidParameter,
            .moduleUnavailable, .rejected, .redirectLoop, .tooManyRedirects, .targetFailed
        ]
    }
}
