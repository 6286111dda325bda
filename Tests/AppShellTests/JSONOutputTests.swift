import Foundation
import TestSupport
import Testing

@testable import AppShell

/// Under `--json` every subcommand and command prints JSON Lines, one compact document per line
/// with a `type` and a format `version`; integers beyond 2^53 are strings; `validate --json` locates every problem.
@Suite("app-shell --json")
struct JSONOutputTests {
    @Test func aScriptedSessionIsJSONLinesEachWithATypeAndAVersion() async throws {
        let workspace = try Workspace()
        let script = "help\nmodules\nservices\nstartup\nlogin alice\nwonderland\nfact 2305843009213693951\nhistory\nwhoami\nuptime\nbogus\nreload com.modulehost.numbers\nlogout\n"
        let result = try await workspace.run(["--json"], input: script)
        for (name, stream) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            let documents = try #require(JSONLines.documents(stream), "a line of \(name) is not a JSON object:\n\(stream)")
            for document in documents {
                #expect(document["type"] is String, "\(document)")
                #expect(document["version"] as? Int == 1, "\(document)")
                #expect(document["data"] != nil, "\(document)")
            }
        }
        let types = JSONLines.documents(result.stdout)?.compactMap { $0["type"] as? String } ?? []
        #expect(types == ["startupReport", "help", "modules", "services", "startupReport"] + Array(repeating: "result", count: 7),
                "\(types)")
        #expect(JSONLines.documents(result.stderr)?.contains { $0["type"] as? String == "error" } == true, "bogus is an error document")
        #expect(result.status == 64, "the unknown command's status")
        #expect(!result.all.contains("wonderland"))
    }

    @Test func integersBeyondTwoToThe53AreStrings() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["fact", "2305843009213693951", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""number":"2305843009213693951""#), "\(result.stdout)")
        let small = try await workspace.run(["fact", "28", "--json"])
        #expect(small.stdout.contains(#""number":28"#), "\(small.stdout)")
    }

    @Test func largeIntegersAreQuotedOnlyOutsideStrings() {
        #expect(LargeIntegers.quoted(in: #"{"a":9007199254740993,"b":9007199254740992,"c":"9007199254740993 x","d":-9007199254740993,"e":1.5e300}"#)
            == #"{"a":"9007199254740993","b":9007199254740992,"c":"9007199254740993 x","d":"-9007199254740993","e":1.5e300}"#)
    }

    @Test func validateJSONLocatesEveryDiagnostic() async throws {
        let workspace = try Workspace(manifest: "{\n  \"modules\": [\n    \"NumbersModule.NumbersModul\",\n    {\"type\": \"ClockModule.ClockModule\", \"eagr\": true}\n  ]\n}\n")
        let result = try await workspace.run(["validate", "--json"])
        #expect(result.status == 65)
        let verdict = try #require(JSONLines.data(result.stdout, type: "validation") as? [String: Any], "\(result.stdout)")
        #expect(verdict["valid"] as? Bool == false)
        let diagnostics = try #require(verdict["diagnostics"] as? [[String: Any]])
        var byCode: [String: [String: Any]] = [:]
        for diagnostic in diagnostics { byCode[diagnostic["code"] as? String ?? "", default: diagnostic] = byCode[diagnostic["code"] as? String ?? ""] ?? diagnostic }
        let unknownType = try #require(byCode["unknownType"])
        #expect(unknownType["line"] as? Int == 3)
        #expect(unknownType["column"] as? Int == 5)
        #expect(unknownType["path"] as? String == "modules[0].type")
        #expect((unknownType["file"] as? String)?.hasSuffix("modules.json") == true)
        #expect(unknownType["suggestion"] as? String != nil || (unknownType["message"] as? String)?.contains("NumbersModule.NumbersModule") == true)
        let unknownField = try #require(byCode["unknownField"])
        #expect(unknownField["suggestion"] as? String == "did you mean \"eager\"?")
        #expect(unknownField["line"] as? Int == 4)
        let valid = try await Workspace().run(["validate", "--json"])
        let ok = try #require(JSONLines.data(valid.stdout, type: "validation") as? [String: Any])
        #expect(ok["valid"] as? Bool == true)
        // As many as the demo manifest lists, whatever modules it holds (adding one must break no test).
        let demo = try JSONSerialization.jsonObject(with: Data(Workspace.demoManifest.utf8)) as? [String: Any]
        #expect(ok["modules"] as? Int == (demo?["modules"] as? [Any])?.count)
    }

    @Test func graphJSONListsOperationsWithTheirDependencies() async throws {
        let result = try await Workspace().run(["graph", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let nodes = try #require(JSONLines.data(result.stdout, type: "graph") as? [[String: Any]])
        let history = try #require(nodes.first { $0["identifier"] as? String == "numbers.load-history" })
        #expect(history["dependencies"] as? [String] == ["auth.restore-session"])
        #expect(history["phase"] as? String == "asyncHigh")
    }
}

/// `--help` and `--version` honour `--json` (and `-m`) too.
@Suite("app-shell --help --json")
struct HelpJSONTests {
    @Test func helpAndVersionAsJSON() async throws {
        let workspace = try Workspace(manifest: #"{"modules": ["ClockModule.ClockModule"]}"#)
        let help = try await workspace.run(["--help", "--json"])
        #expect(help.status == 0)
        let entries = try #require(JSONLines.data(help.stdout, type: "help") as? [[String: Any]], "\(help.stdout)")
        #expect(entries.contains { $0["name"] as? String == "validate" })
        #expect(entries.contains { $0["name"] as? String == "uptime" && $0["module"] as? String == "com.modulehost.clock" })
        #expect(!entries.contains { $0["name"] as? String == "fact" }, "only this manifest's module commands")
        let version = try await workspace.run(["--version", "--json"])
        #expect((JSONLines.data(version.stdout, type: "version") as? [String: Any])?["version"] as? String == Invocation.version)
    }
}
