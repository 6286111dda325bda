import Foundation
import TestSupport
import Testing

/// Runs the built `app-shell`'s subcommands (`fact`, `validate`, `modules`, `graph`) and options, and checks their
/// output and exit statuses.
@Suite("app-shell command line end to end")
struct AppShellCommandLineEndToEndTests {
    @Test func factSubcommandPrintsJSON() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["fact", "28", "--json"])
        #expect(result.status == 0)
        let result28 = JSONLines.data(result.stdout, type: "result") as? [String: Any]
        let object = result28?["value"] as? [String: Any]
        #expect(object?["number"] as? Int == 28)
        #expect(object?["kind"] as? String == "perfect")
        let bad = try await workspace.run(["fact", "twelve"])
        #expect(bad.status == 64)
    }

    @Test func validateReportsEveryProblemWithExit65() async throws {
        let workspace = try Workspace(manifest: """
            {"version": 1, "modules": [
              {"type": "AuthModule.AuthModul"},
              {"type": "NumbersModule.NumbersModule", "enabeld": true, "config": {"historyLimit": 0}}
            ]}
            """)
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("modules.json:2:3: error: modules[0].type: no type named \"AuthModule.AuthModul\""))
        #expect(result.stderr.contains("did you mean \"AuthModule.AuthModule\"?"))
        #expect(result.stderr.contains("modules[1].enabeld: unknown field \"enabeld\""))
        #expect(result.stderr.contains("modules[1].config.historyLimit"))
        #expect(result.stderr.contains("3 errors in"))
    }

    @Test func validateAcceptsTheDemoManifest() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["validate"])
        #expect(result.status == 0, "\(result.stderr)")
        // Counts are not pinned, so adding a module to the demo manifest breaks no test.
        #expect(result.stdout.contains(" modules, "))
        #expect(result.stdout.contains(" startup operations)"))
    }

    @Test func missingManifestExits66AndMalformedExits65() async throws {
        let missing = try Workspace(manifest: nil)
        let result = try await missing.run(["modules"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("modules.json: error: no manifest file at this path"))

        let malformed = try Workspace(manifest: "{\"modules\": [\n  \"AuthModule.AuthModule\",\n]}")
        let broken = try await malformed.run([])
        #expect(broken.status == 65)
        #expect(broken.stderr.contains("modules.json:3:1: error: malformed JSON"))

        let elsewhere = try Workspace(manifest: nil)
        try elsewhere.write(#"{"modules": ["ClockModule.ClockModule"]}"#, to: "other.json")
        #expect(try await elsewhere.run(["modules", "--manifest", "other.json"]).status == 0)
    }

    @Test func usageErrorsExit64() async throws {
        let workspace = try Workspace()
        for arguments in [["--bogus"], ["frobnicate"], ["graph", "--format", "svg"], ["fact"], ["--manifest"]] {
            let result = try await workspace.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains("for usage."), "\(arguments): \(result.stderr)")
        }
        let help = try await workspace.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("EXIT STATUS"))
        #expect(try await workspace.run(["--version"]).stdout.hasPrefix("app-shell "))
    }

    @Test func graphInDotAndMermaid() async throws {
        let workspace = try Workspace()
        let dot = try await workspace.run(["graph"])
        #expect(dot.status == 0)
        #expect(dot.stdout.hasPrefix("digraph"))
        #expect(dot.stdout.contains("auth.restore-session"))
        let mermaid = try await workspace.run(["graph", "--format", "mermaid"])
        #expect(mermaid.stdout.hasPrefix("flowchart"))
    }

    @Test func modulesListAsTableAndJSON() async throws {
        let workspace = try Workspace()
        let table = try await workspace.run(["modules"])
        #expect(table.stdout.contains("com.modulehost.auth"))
        #expect(table.stdout.contains("registered"))
        let json = try await workspace.run(["modules", "--json"])
        let list = JSONLines.data(json.stdout, type: "modules") as? [[String: Any]]
        let identifiers = list?.compactMap { $0["identifier"] as? String } ?? []
        #expect(Set(identifiers).isSuperset(of: ["com.modulehost.auth", "com.modulehost.numbers", "com.modulehost.clock"]))
    }

    @Test func traceIsValidChromeTraceJSON() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["-q", "--trace", "trace.json"], input: "quit\n")
        #expect(result.status == 0)
        let data = try Data(contentsOf: workspace.url.appendingPathComponent("trace.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let events = try #require(object?["traceEvents"] as? [[String: Any]])
        let names = Set(events.filter { $0["ph"] as? String == "X" }.compactMap { $0["name"] as? String })
        #expect(names.isSuperset(of: ["auth.restore-session", "numbers.warm-primes", "numbers.load-history"]))
    }
}
