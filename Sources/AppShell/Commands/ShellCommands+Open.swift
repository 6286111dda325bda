import ModuleHost
import ModuleHostRouting

extension ShellCommands {
    /// `open <url>`: opens the link through the manager's router, from `source`, and prints what its route
    /// returned (a `route` document under `--json`) or why it did not open.
    func open(_ arguments: [String], from source: RouteRequest.Source) async -> ExitCode {
        guard arguments.count == 1, let url = arguments.first else {
            return fail("usage: open <url>", .usage)
        }
        do {
            let result = try await manager.router.open(url, from: source)
            if Task.isCancelled { return .failure }
            if invocation.json {
                console.json("route", RouteOutcome(result))
            } else if !result.output.text.isEmpty {
                console.out(result.output.text)
            }
            return .ok
        } catch {
            if Task.isCancelled { return .failure }
            return fail("open: \(DisplayText.printable(error.description))", Self.exitCode(for: error.code))
        }
    }

    /// The documented status for each known reason a link did not open: refused 77, a bad link 65, a failure 1.
    static let routeExitCodes: [RouteError.Code: ExitCode] = [
        .notExternal: .refused, .rejected: .refused,
        .invalidURL: .badManifest, .urlTooLong: .badManifest, .wrongScheme: .badManifest, .wrongHost: .badManifest,
        .routeNotFound: .badManifest, .invalidParameter: .badManifest, .redirectLoop: .badManifest,
        .tooManyRedirects: .badManifest,
        .moduleUnavailable: .failure, .targetFailed: .failure,
    ]

    /// The status for `code`; a code added after this host was written is a failure (1).
    static func exitCode(for code: RouteError.Code) -> ExitCode {
        routeExitCodes[code] ?? .failure
    }
}

/// A `route` document: the link that opened, its route, the redirects on the way, and the target's value and text.
struct RouteOutcome: Encodable {
    let url: String
    let route: RouteDescription
    let redirects: [String]
    let value: EncodedValue?
    let text: String

    init(_ result: ModuleRouter.Result) {
        url = result.url
        route = result.route
        redirects = result.redirects
        value = result.output.value.map(EncodedValue.init(value:))
        text = result.output.text
    }
}
