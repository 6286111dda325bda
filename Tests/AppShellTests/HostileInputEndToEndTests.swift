import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Outside in: each promise an attack on a release build broke, tried again with the built `app-shell`.
@Suite("Hostile input, third round")
struct HostileInputEndToEndTests {
    private static func mode(of path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_mode & 0o7777) : -1
    }

    /// Point 1: `--state-dir` at a shared folder chmodded it to 0700, silently, even for `whoami`. Now every
    /// command that touches state refuses it, says so, and leaves its mode as it was.
    @Test(arguments: [0o1777, 0o2775])
    func aSharedStateFolderIsRefusedAndKeepsItsMode(mode: Int) async throws {
        let workspace = try Workspace()
        let shared = workspace.url.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        #expect(chmod(shared.path, mode_t(mode)) == 0)
        let whoami = try await workspace.run(["--state-dir", shared.path, "whoami"])
        #expect(whoami.stdout.contains("Not logged in"), "\(whoami.stdout)")
        #expect(whoami.stderr.contains("the state directory \(shared.path) is shared (mode 0\(String(mode, radix: 8))"), "\(whoami.stderr)")
        #expect(whoami.stderr.contains("Choose a folder of your own"))
        let login = try await workspace.run(["--state-dir", shared.path, "login", "alice"], input: "wonderland\n")
        #expect(login.status == 1, "\(login.stderr)")
        #expect(login.stderr.contains("is shared"), "\(login.stderr)")
        let fact = try await workspace.run(["--state-dir", shared.path, "fact", "28"])
        #expect(fact.status == 0, "\(fact.stderr)")
        #expect(fact.stderr.contains("history not restored and not saved: the state directory"), "\(fact.stderr)")
        #expect(!fact.stderr.contains("Error"), "a raw error value: \(fact.stderr)")
        #expect(Self.mode(of: shared.path) == mode, "the shared folder's mode changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared.path).isEmpty, "something was written")
    }

    /// Point 3: a copy of `session.json` taken before `logout` signed the user in again after it.
    @Test func aSessionFileSavedBeforeLogoutDoesNotSignInAfterIt() async throws {
        let workspace = try Workspace()
        let login = try await workspace.run(["login", "alice"], input: "wonderland\n")
        #expect(login.status == 0, "\(login.stderr)")
        let session = workspace.url.appendingPathComponent(".app-shell/com.modulehost.auth/session.json")
        let saved = try Data(contentsOf: session)
        #expect(try await workspace.run(["whoami"]).stdout.contains("alice"))
        let logout = try await workspace.run(["logout"])
        #expect(logout.status == 0, "\(logout.stderr)")
        try saved.write(to: session)
        #expect(chmod(session.path, 0o600) == 0)
        let replay = try await workspace.run(["whoami"])
        #expect(replay.stdout.contains("Not logged in"), "a revoked session signed alice in again: \(replay.stdout)")
    }

    /// Point 4: an argument `fact` cannot read was repeated to the terminal raw.
    @Test func aModuleCommandCannotEchoAnEscapeSequence() async throws {
        let workspace = try Workspace()
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
        let result = try await workspace.run(["fact", hostile])
        #expect(result.status == 64)
        let everything = result.stdout + result.stderr
        #expect(!everything.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(everything.debugDescription)")
        #expect(result.stderr.contains(#"\u{1b}]0;pwned\u{7}\u{1b}[2J"#), "\(result.stderr)")
    }

    /// Point 5: under `--json`, a usage error, an unknown subcommand, a bad option, a stray argument and help
    /// printed plain lines.
    private static let jsonCases: [([String], Int32)] = [
        (["--json", "fact"], 64), (["--json", "nosuch"], 64), (["--json", "--bogus"], 64), (["--bogus", "--json"], 64),
        (["--json", "modules", "extra"], 64), (["--json", "help", "fact"], 0), (["--json", "help", "nosuch"], 64),
        (["--json", "fact", "x\u{1B}[2J"], 64), (["--json", "validate", "--format", "dot"], 64),
    ]

    @Test(arguments: jsonCases)
    func underJSONEveryLineOnBothStreamsIsOneDocument(arguments: [String], status: Int32) async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        let out = JSONLines.documents(result.stdout), err = JSONLines.documents(result.stderr)
        #expect(out != nil, "\(arguments): standard output holds a line that is not JSON: \(result.stdout)")
        #expect(err != nil, "\(arguments): standard error holds a line that is not JSON: \(result.stderr)")
        let types: [String?] = ((out ?? []) + (err ?? [])).map { document in
            document["version"] as? Int == 1 ? document["type"] as? String : nil
        }
        #expect(!types.isEmpty)
        #expect(!types.contains(nil), "a document without a type or version: \(result.stdout)\(result.stderr)")
        if status != 0 { #expect(types.contains("error"), "\(types)") }
    }

    /// `--json help fact` is the help document of `fact` alone.
    @Test func jsonHelpForOneCommandIsItsHelpDocument() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["--json", "help", "fact"])
        let entries = try #require(JSONLines.data(result.stdout, type: "help") as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["name"] as? String == "fact")
        #expect(entries.first?["usage"] as? String == "fact <n>")
    }

    /// Point 6: `/numbers/fact/007`, a zero-padded 1 and `-0` opened, each with a canonical URL of its own.
    @Test(arguments: ["007", "00000000000000000001", "-0"])
    func aRouteIntegerHasOneSpelling(spelling: String) async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["open", "modulehost://app/numbers/fact/\(spelling)"])
        #expect(result.status == 65, "\(spelling): \(result.stdout)")
        #expect(result.stderr.contains("the parameter \"n\" is '\(spelling)'; expected an integer"), "\(result.stderr)")
    }

    /// Percent-encoding gives a value no second URL: an encoded digit or letter opens the same route, reported with
    /// the one canonical spelling that redirect-loop detection compares.
    @Test(arguments: ["modulehost://app/numbers/fact/%37", "modulehost://app/numbers/%66act/%37", "MODULEHOST://APP/numbers/fact/7/"])
    func aPercentEncodedLinkHasTheCanonicalSpelling(link: String) async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["--json", "open", link])
        #expect(result.status == 0, "\(link): \(result.stderr)")
        let route = try #require(JSONLines.data(result.stdout, type: "route") as? [String: Any], "\(result.stdout)")
        #expect(route["url"] as? String == "modulehost://app/numbers/fact/7", "\(link): \(route)")
    }

    /// A plugin whose library is "." was told it lies outside the manifest's folder, which it is.
    @Test func aPluginLibraryThatNamesTheManifestFolderSaysSo() async throws {
        let workspace = try Workspace(manifest: #"{"modules": [{"type": "Greeter.GreeterModule", "library": "."}]}"#)
        let result = try await workspace.run(["validate"])
        #expect(result.status == 65, "\(result.stdout)")
        #expect(result.stderr.contains("names the manifest's folder"), "\(result.stderr)")
        #expect(!result.stderr.contains("outside the manifest's folder"), "\(result.stderr)")
    }
}
