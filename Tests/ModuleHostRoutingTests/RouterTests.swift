import Foundation
import Testing
@testable import ModuleHost
@testable import ModuleHostRouting
import TestSupport
import ModuleHostTesting

@Suite("Router", .timeLimit(.minutes(5)))
struct RouterTests: RouterSuite {
    // MARK: Decisions

    @Test func passRunsTheTargetWithDecodedParametersAfterTheHandlersDecision() async throws {
        let recorder = LoadRecorder()
        let manager = try manager(recorder: recorder)
        let result = try await manager.router.open("/alpha/items/42?format=long")
        #expect(result.output.text == "item 42 long")
        #expect(result.output.value as? Int == 42)
        #expect(result.url == "modulehost-app://app/alpha/items/42?format=long")
        #expect(result.route.identifier == "alpha.item")
        #expect(result.route.module == "test.routes.alpha")
        #expect(result.redirects.isEmpty)
        #expect(recorder.events == ["load alpha", "decide alpha.item", "target alpha.item"])
    }

    @Test func everyAllowedFormOfALinkOpensFromInsideTheApp() async throws {
        let manager = try manager()
        for url in ["/alpha/items/3", "/alpha/items/3/", "modulehost-app://app/alpha/items/3", "modulehost://app/alpha/items/3",
                    "MODULEHOST://APP/alpha/items/3", "/alpha/items/%33"] {
            let result = try await manager.router.open(url)
            #expect(result.output.text == "item 3 plain", "\(url)")
        }
    }

    @Test func aRejectionIsAnErrorWithTheModulesReasonAndNothingRuns() async throws {
        let recorder = LoadRecorder()
        let manager = try manager(recorder: recorder)
        let error = try #require(await failure("/alpha/closed", in: manager))
        #expect(error.code == .rejected)
        #expect(error.route == "alpha.closed")
        #expect(error.message.contains("closed for tests"))
        #expect(!recorder.events.contains { $0.hasPrefix("target") })
    }

    @Test func aRedirectOpensTheOtherLinkAndListsTheWay() async throws {
        let recorder = LoadRecorder()
        let manager = try manager(recorder: recorder)
        let result = try await manager.router.open("modulehost://app/alpha/lucky", from: .external)
        #expect(result.output.text == "item 7 plain")
        #expect(result.redirects == ["modulehost://app/alpha/lucky"])
        #expect(result.url == "modulehost://app/alpha/items/7")
        #expect(recorder.events.contains("target alpha.item"))
        #expect(!recorder.events.contains("target alpha.lucky"))
    }

    @Test func aRedirectLoopIsReportedWithItsPath() async throws {
        let manager = try manager()
        let error = try #require(await failure("/alpha/loop/a", in: manager))
        #expect(error.code == .redirectLoop)
        #expect(error.redirects == ["modulehost-app://app/alpha/loop/a", "modulehost-app://app/alpha/loop/b",
                                    "modulehost-app://app/alpha/loop/a"])
        #expect(error.message.contains("modulehost-app://app/alpha/loop/a -> modulehost-app://app/alpha/loop/b -> modulehost-app://app/alpha/loop/a"))
    }

    @Test func redirectsStopAtTheLimit() async throws {
        let manager = try manager()
        let error = try #require(await failure("/alpha/chain/0", in: manager))
        #expect(error.code == .tooManyRedirects)
        #expect(error.redirects.count == RouteLimits.redirects + 1)
        #expect(error.redirects.last == "modulehost-app://app/alpha/chain/\(RouteLimits.redirects)")
    }

    @Test func aTargetThatThrowsIsReportedWithItsError() async throws {
        let recorder = LoadRecorder()
        let manager = try manager(recorder: recorder)
        let error = try #require(await failure("/alpha/fails", in: manager))
        #expect(error.code == .targetFailed)
        #expect(error.underlyingError is RouteExplosion)
        #expect(error.description.contains("the route exploded"))
        #expect(recorder.events.last == "decide alpha.fails")
    }

    // MARK: The external rule

    @Test func aLinkFromOutsideOpensOnlyAnExternalRoute() async throws {
        let manager = try manager()
        let opened = try await manager.router.open("modulehost://app/alpha/items/5", from: .external)
        #expect(opened.output.text == "item 5 plain")
        let refused = try #require(await failure("modulehost://app/alpha/private", from: .external, in: manager))
        #expect(refused.code == .notExternal)
        #expect(refused.message.contains("opens only from inside the app"))
        // The same route opens from inside.
        #expect(try await manager.router.open("modulehost://app/alpha/private").output.text == "private")
    }

    @Test func anUnknownPathFromOutsideIsRefusedAndSuggestsOnlyExternalRoutes() async throws {
        let recorder = LoadRecorder()
        let manager = try manager(recorder: recorder)
        let unknown = try #require(await failure("modulehost://app/alpha/nothing/here", from: .external, in: manager))
        #expect(unknown.code == .routeNotFound)
        #expect(unknown.message.contains("only routes marked external"))
        let close = try #require(await failure("modulehost://app/alpha/privat", from: .external, in: manager))
        #expect(close.code == .routeNotFound)
        #expect(close.suggestion == nil, "the in-app route is not offered to another program")
        #expect(recorder.events.isEmpty, "nothing was loaded or asked")
    }

    @Test func aLinkFromOutsideMustUseAnExternalSchemeAndBeWrittenInFull() async throws {
        let manager = try manager()
        let inAppScheme = try #require(await failure("modulehost-app://app/alpha/items/5", from: .external, in: manager))
        #expect(inAppScheme.code == .wrongScheme)
        #expect(inAppScheme.message.contains("in-app scheme"))
        let path = try #require(await failure("/alpha/items/5", from: .external, in: manager))
        #expect(path.code == .invalidURL)
        let otherScheme = try #require(await failure("https://app/alpha/items/5", in: manager))
        #expect(otherScheme.code == .wrongScheme)
        let otherHost = try #require(await failure("modulehost://elsewhere/alpha/items/5", in: manager))
        #expect(otherHost.code == .wrongHost)
    }

    @Test func aLinkOfAnotherSchemeWithNoHostIsRefusedForItsScheme() async throws {
        // `file:///etc/passwd` used to be refused for its empty host.
        let manager = try manager()
        for source in [RouteRequest.Source.external, .inApp] {
            let file = try #require(await failure("file:///etc/passwd", from: source, in: manager))
            #expect(file.code == .wrongScheme)
            #expect(file.message.contains("the scheme \"file\" is not this app's; use "), "\(file.message)")
            #expect(file.message.contains("\"modulehost\""), "\(file.message)")
            #expect(!file.message.contains("host name") && !file.message.contains("its host"), "\(file.message)")
        }
    }

    @Test func aRedirectKeepsTheLinksSourceSoOutsideCannotReachAnInAppRoute() async throws {
        let manager = try manager()
        let error = try #require(await failure("modulehost://app/alpha/sneaky", from: .external, in: manager))
        #expect(error.code == .notExternal)
        #expect(error.route == "alpha.private")
        #expect(error.redirects == ["modulehost://app/alpha/sneaky"])
        #expect(try await manager.router.open("/alpha/sneaky").output.text == "private")
    }

    // MARK: Finding routes

    @Test func aLiteralSegmentWinsOverAParameter() async throws {
        let manager = try manager()
        #expect(try await manager.router.open("/alpha/items/latest").output.text == "latest")
        #expect(try await manager.router.open("/alpha/items/9").output.text == "item 9 plain")
    }

    @Test func anUnknownRouteSuggestsTheClosest() async throws {
        let manager = try manager()
        let error = try #require(await failure("/alpha/itemz/3", in: manager))
        #expect(error.code == .routeNotFound)
        #expect(error.suggestion == "/alpha/items/:id")
        #expect(error.description.contains("did you mean /alpha/items/:id?"))
    }

    @Test(arguments: [
        ("/alpha/items/abc", "the parameter \"id\" is 'abc'; expected an integer in 1...100"),
        ("/alpha/items/101", "the parameter \"id\" is '101'; expected an integer in 1...100"),
        ("/alpha/items/+5", "expected an integer in 1...100"),
        // These opened, each spelling with its own canonical URL.
        ("/alpha/items/007", "the parameter \"id\" is '007'; expected an integer in 1...100"),
        ("/alpha/items/00000000000000000001", "expected an integer in 1...100"),
        ("/alpha/items/-0", "expected an integer in 1...100"),
        ("/alpha/items/0", "expected an integer in 1...100"),
        ("/alpha/items/5?format=wide", "the query item \"format\" is 'wide'; expected one of \"short\", \"long\""),
        ("/alpha/items/5?colour=red", "the query item \"colour\" is not one the route reads; it reads \"format\""),
        ("/alpha/search", "the query item \"q\" is missing"),
        ("/alpha/search?q=far-too-long", "expected text of at most 8 bytes"),
        ("/alpha/echo/a%0Ab", "expected text of at most 256 bytes without control characters"),
    ])
    func aParameterThatDoesNotDecodeIsNamedWithWhatWasExpected(url: String, message: String) async throws {
        let manager = try manager()
        let error = try #require(await failure(url, in: manager))
        #expect(error.code == .invalidParameter, "\(url)")
        #expect(error.message.contains(message), "\(error.message)")
    }

    /// `/numbers/fact/007`, a 20-digit zero-padded 1 and `-0` all opened, each spelling with a
    /// canonical URL of its own. An integer has one spelling.
    @Test(arguments: [("0", 0 as Int?), ("7", 7), ("-5", -5), ("100", 100), ("9223372036854775807", Int.max),
                      ("-9223372036854775808", Int.min), ("007", nil), ("00", nil), ("-0", nil), ("-07", nil),
                      ("00000000000000000001", nil), ("+7", nil), ("", nil), ("-", nil), ("9223372036854775808", nil)])
    func anIntegerParameterHasOneSpelling(raw: String, expected: Int?) {
        #expect(ModuleRoute.Parameter.integer(from: raw) == expected, "\(raw)")
        let decoded = ModuleRoute.Parameter.integer("n").decode(raw)
        if let expected { #expect(decoded == .integer(expected)) } else { #expect(decoded == nil, "\(raw)") }
    }

    @Test func percentEncodedTextIsDecoded() async throws {
        let manager = try manager()
        #expect(try await manager.router.open("/alpha/echo/hello%20w%C3%B6rld").output.text == "hello wörld")
    }

    @Test(arguments: [
        "", "alpha/items/3", "/", "//alpha", "/alpha//items", "/alpha/items/3#top", "/alpha/items/%4", "/alpha/items/%zz",
        "/alpha/items/%FF", "/alpha/../alpha/items/3", "/alpha/ items", "modulehost://user@app/alpha/items/3",
        "modulehost://app:80/alpha/items/3", "/alpha/items/3?a=1&a=2", "mod ulehost://app/x",
    ])
    func malformedLinksAreInvalid(url: String) async throws {
        let manager = try manager()
        let error = try #require(await failure(url, in: manager))
        #expect(error.code == .invalidURL, "\(url): \(error)")
    }

    // MARK: Bounds

    @Test func linksAndTheirPartsAreBounded() async throws {
        let manager = try manager()
        let long = "/alpha/echo/" + String(repeating: "a", count: RouteLimits.urlBytes)
        #expect(await failure(long, in: manager)?.code == .urlTooLong)
        let longWord = "/alpha/echo/" + String(repeating: "a", count: RouteLimits.parameterBytes + 1)
        #expect(await failure(longWord, in: manager)?.code == .invalidParameter)
        let deep = String(repeating: "/a", count: RouteLimits.segments + 1)
        #expect(await failure(deep, in: manager)?.code == .invalidURL)
        let query = "/alpha/items/1?" + (0...RouteLimits.queryItems).map { "q\($0)=1" }.joined(separator: "&")
        #expect(await failure(query, in: manager)?.code == .invalidURL)
        // Exactly at the parameter limit is fine.
        let fits = "/alpha/echo/" + String(repeating: "b", count: RouteLimits.parameterBytes)
        #expect(try await manager.router.open(fits).output.text.count == RouteLimits.parameterBytes)
    }
}
