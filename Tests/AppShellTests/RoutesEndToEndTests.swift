@testable import AppShell
import Foundation
import TestSupport
import ModuleHost
import Testing

/// Routes end to end: `app-shell open <url>` is how another program hands the app a link, so only external routes
/// open; `open` at the prompt is the app itself; `routes` lists the table.
@Suite("app-shell routes and open")
struct RoutesEndToEndTests {
    @Test func aFileLinkIsRefusedForItsSchemeNamingTheSchemesTheAppOpens() async throws {
        // It used to say `its host "" is not a host name`.
        let workspace = try Workspace()
        let result = try await workspace.run(["open", "file:///etc/passwd"])
        #expect(result.status == 65)
        #expect(result.stderr.contains(#"the scheme "file" is not this app's; use "modulehost""#), "\(result.stderr)")
        #expect(!result.stderr.contains("host name"), "\(result.stderr)")
        #expect(!result.stdout.contains("root:"), "nothing of the file is shown")
    }

    @Test func aLinkFromAnotherProgramPrintsTheFactFor28() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["open", "modulehost://app/numbers/fact/28"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "28 is a perfect number: it equals the sum of its proper divisors 1 + 2 + 4 + 7 + 14.\n")
    }

    @Test func anInAppOnlyRouteOpenedFromOutsideIsRefusedWith77() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["open", "modulehost://app/auth/user"])
        #expect(result.status == 77)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(#"the route "auth.user" (/auth/user) opens only from inside the app; another program may not open it"#),
                "\(result.stderr)")
        // The in-app scheme is not another program's to use either.
        let inAppScheme = try await workspace.run(["open", "modulehost-app://app/numbers/fact/28"])
        #expect(inAppScheme.status == 65)
        #expect(inAppScheme.stderr.contains("in-app scheme"))
        // Nor is a path alone.
        let path = try await workspace.run(["open", "/numbers/fact/28"])
        #expect(path.status == 65)
    }

    @Test func anUnknownPathFromOutsideIsRefusedWithNoOutput() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["open", "modulehost://app/numbers/secret"])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no route matches '/numbers/secret'; a link from another program opens only routes marked external"))
    }

    @Test func aRedirectAndABadParameter() async throws {
        let workspace = try Workspace()
        let lucky = try await workspace.run(["open", "modulehost://app/numbers/lucky"])
        #expect(lucky.status == 0, "\(lucky.stderr)")
        #expect(lucky.stdout.hasPrefix("7 is prime"))
        let bad = try await workspace.run(["open", "modulehost://app/numbers/fact/abc"])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains(#"the parameter "n" is 'abc'; expected an integer"#), "\(bad.stderr)")
    }

    @Test func openAsJSONIsOneDocumentWithTheRouteAndValue() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["open", "--json", "modulehost://app/numbers/lucky"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let data = try #require(JSONLines.data(result.stdout, type: "route") as? [String: Any])
        #expect(data["url"] as? String == "modulehost://app/numbers/fact/7")
        #expect(data["redirects"] as? [String] == ["modulehost://app/numbers/lucky"])
        #expect((data["route"] as? [String: Any])?["identifier"] as? String == "numbers.fact")
        #expect((data["value"] as? [String: Any])?["number"] as? Int == 7)
        let refused = try await workspace.run(["open", "--json", "modulehost://app/auth/user"])
        #expect(refused.status == 77)
        #expect(JSONLines.data(refused.stderr, type: "error") != nil, "\(refused.stderr)")
    }

    @Test func routesListsTheTableAlsoAsJSON() async throws {
        let workspace = try Workspace()
        let table = try await workspace.run(["routes"], environment: ["COLUMNS": "200"])
        #expect(table.status == 0, "\(table.stderr)")
        let row = try #require(table.stdout.split(separator: "\n").first { $0.contains("/numbers/fact/:n") })
        #expect(row.contains("com.modulehost.numbers") && row.contains("numbers.fact") && row.contains("yes"))
        let user = try #require(table.stdout.split(separator: "\n").first { $0.contains("/auth/user") })
        #expect(user.contains(" no "))
        #expect(table.stdout.contains("Links: modulehost://app/<path> from other programs"))

        let json = try await workspace.run(["routes", "--json"])
        let data = try #require(JSONLines.data(json.stdout, type: "routes") as? [String: Any])
        let routes = try #require(data["routes"] as? [[String: Any]])
        #expect(routes.map { $0["pattern"] as? String } == ["/auth/user", "/numbers/fact/:n", "/numbers/lucky", "/numbers/history"])
        #expect((data["settings"] as? [String: Any])?["host"] as? String == "app")
    }

    @Test func atThePromptOpenIsInAppAndARejectionLeavesTheShellRunning() async throws {
        let workspace = try Workspace()
        let session = try await workspace.run(["-q"], input: "open /numbers/fact/6\nopen /auth/user\nopen /numbers/history\nwhoami\n")
        #expect(session.stdout.contains("6 is a perfect number"))
        #expect(session.stderr.contains("nobody is logged in; log in first"), "\(session.stderr)")
        #expect(session.stdout.contains("History (anonymous):"), "the shell went on after the rejection")
        #expect(session.stdout.contains("Not logged in"))
        #expect(session.status == 77, "a script exits with the status of its first failed command")

        let loggedIn = try await workspace.run(["-q"], input: "login alice\nwonderland\nopen /auth/user\nlogout\n")
        #expect(loggedIn.status == 0, "\(loggedIn.stderr)")
        #expect(loggedIn.stdout.contains("Alice (alice), session until"))
    }

    @Test func openNeedsExactlyOneLink() async throws {
        let workspace = try Workspace()
        let none = try await workspace.run(["open"])
        #expect(none.status == 64)
        #expect(none.stderr.contains("Usage: app-shell open <url>"))
        let help = try await workspace.run(["help", "open"], environment: ["COLUMNS": "200"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("only routes marked external open"))
    }

    @Test func tabAfterOpenOffersTheRoutesPaths() throws {
        let manager = ModuleManager()
        try manager.registerModules(from: Data(#"{"modules": ["NumbersModule.NumbersModule", "ClockModule.ClockModule"]}"#.utf8))
        let completions = PromptCompletions.shell(manager)
        #expect(completions.candidates(for: "/numbers/", after: "open ") == ["/numbers/fact/", "/numbers/history", "/numbers/lucky"])
        #expect(completions.candidates(for: "ro", after: "") == ["routes"])
    }
}
