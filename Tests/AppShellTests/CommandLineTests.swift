import Foundation
import TestSupport
import Testing

@testable import AppShell

/// The command line follows swift-argument-parser's conventions, from one declaration table (`CommandLineTable`).
@Suite("app-shell command line")
struct CommandLineTests {
    private func usageError(_ arguments: [String]) -> Invocation.UsageError? {
        do {
            _ = try Invocation.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test func flagsRejectAValueAndCombineAsShortFlags() throws {
        #expect(usageError(["--json=false"])?.message == "the flag --json takes no value")
        #expect(usageError(["--quiet=no"])?.message == "the flag --quiet takes no value")
        let combined = try Invocation.parse(["-qv"])
        #expect(combined.quiet && combined.verbose && combined.command == .run)
        let withValue = try Invocation.parse(["-vm", "other.json", "validate"])
        #expect(withValue.manifestPath == "other.json" && withValue.verbose && withValue.command == .validate)
        #expect(usageError(["-qx"])?.message == "unknown option '-x' in '-qx'")
        #expect(try Invocation.parse(["fact", "-5"]).command == .moduleCommand("fact", ["-5"]), "a negative number is an argument")
    }

    @Test func anOptionThatDoesNotApplyIsAUsageErrorNamingTheSubcommand() {
        let error = usageError(["validate", "--trace", "t.json"])
        #expect(error?.message == "option --trace does not apply to validate")
        #expect(error?.subcommand == "validate")
        #expect(usageError(["modules", "--format", "dot"])?.message == "option --format does not apply to modules")
        #expect(usageError(["modules", "-q"])?.message == "option --quiet does not apply to modules")
    }

    @Test func helpForEachSubcommandInEveryForm() throws {
        #expect(try Invocation.parse(["graph", "--help"]).command == .help("graph"))
        #expect(try Invocation.parse(["help", "graph"]).command == .help("graph"))
        #expect(try Invocation.parse(["-h"]).command == .help(nil))
        #expect(try Invocation.parse(["fact", "--help"]).command == .help("fact"))
    }

    @Test func subcommandHelpListsOnlyItsOptionsAndUsageErrorsShowTheUsageLine() async throws {
        let workspace = try Workspace()
        for arguments in [["graph", "--help"], ["help", "graph"]] {
            let help = try await workspace.run(arguments)
            #expect(help.status == 0)
            #expect(help.stdout.contains("USAGE: app-shell graph [<options>]"), "\(help.stdout)")
            #expect(help.stdout.contains("--format <dot|mermaid>"))
            #expect(!help.stdout.contains("--state-dir"), "graph takes no --state-dir")
        }
        let wrong = try await workspace.run(["validate", "--trace", "t.json"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("Usage: app-shell validate [<options>]"), "\(wrong.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("t.json").path))
        let flag = try await workspace.run(["--json=false", "modules"])
        #expect(flag.status == 64)
        #expect(flag.stdout.isEmpty, "no JSON printed")
    }

    @Test func helpWrapsToTheWidth() async throws {
        let workspace = try Workspace()
        for columns in [40, 80, 200] {
            let help = try await workspace.run(["--help"], environment: ["COLUMNS": "\(columns)"])
            let long = help.stdout.split(separator: "\n").filter { $0.count > columns }
            #expect(long.isEmpty, "at \(columns) columns: \(long)")
            #expect(help.stdout.contains("\n       app-shell <module-command>"), "the second usage line is indented under the first")
        }
    }

    @Test func completionScriptsForEachShellIncludeModuleCommands() async throws {
        let workspace = try Workspace()
        for shell in ["bash", "zsh", "fish"] {
            let script = try await workspace.run(["--generate-completion-script", shell])
            #expect(script.status == 0, "\(shell): \(script.stderr)")
            let options = shell == "fish" ? ["-l manifest", "-l json"] : ["--manifest", "--json"]
            for word in ["validate", "graph", "fact", "uptime", "login"] + options {
                #expect(script.stdout.contains(word), "\(shell) script lacks \(word)")
            }
        }
        let bash = try await workspace.run(["--generate-completion-script", "bash"])
        let file = try workspace.write(bash.stdout, to: "app-shell.bash")
        // The script is valid bash.
        #expect(try ToolOutput.run("/bin/bash", ["-n", file.path]).status == 0, "bash -n rejects the script")
        #expect(try await workspace.run(["--generate-completion-script", "tcsh"]).status == 64)
    }

    /// Under --json the script is one document like every other output, not plain text.
    @Test func underJSONTheCompletionScriptIsOneDocument() async throws {
        let workspace = try Workspace()
        let plain = try await workspace.run(["--generate-completion-script", "bash"])
        let result = try await workspace.run(["--json", "--generate-completion-script", "bash"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stdout.prefix(200))")
        let document = try #require(JSONLines.data(result.stdout, type: "completionScript") as? [String: Any])
        #expect(document["shell"] as? String == "bash")
        #expect(document["script"] as? String == plain.stdout)
    }
}
