import Foundation
import TestSupport
import Testing

/// Every command beyond the shell's own comes from the module that declares it: at the prompt, in scripts,
/// one-shot, in `help`, and gone when its module is not in the manifest.
@Suite("app-shell module commands")
struct ModuleCommandTests {
    private static let numbersOnly = #"{"modules": ["NumbersModule.NumbersModule"]}"#
    private static let withoutNumbers = #"{"modules": ["ClockModule.ClockModule"]}"#

    @Test func helpListsEachCommandWithTheModuleThatDeclaresIt() async throws {
        let workspace = try Workspace()
        let prompt = try await workspace.run(["-q"], input: "help\n")
        let global = try await workspace.run(["--help"])
        for output in [prompt.stdout, global.stdout] {
            for (usage, module) in [("login <user>", "auth"), ("logout", "auth"), ("whoami", "auth"), ("fact <n>", "numbers"),
                                    ("random", "numbers"), ("history", "numbers"), ("uptime", "clock")] {
                // An entry may wrap: its line and the indented lines after it, up to the next entry.
                let lines = output.split(separator: "\n").map(String.init)
                let start = lines.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix(usage + " ") }
                let entry = start.map { index in
                    ([lines[index]] + lines[(index + 1)...].prefix { $0.hasPrefix("      ") && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("[") || $0.hasPrefix("                ") })
                        .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                }
                #expect(entry?.hasSuffix("[com.modulehost.\(module)]") == true, "\(usage) in:\n\(output)")
            }
        }
    }

    @Test func withoutItsModuleACommandIsGoneFromHelpAndUnknown() async throws {
        let workspace = try Workspace(manifest: Self.withoutNumbers)
        let prompt = try await workspace.run(["-q"], input: "help\nfact 28\n")
        #expect(!prompt.stdout.contains("fact <n>"))
        #expect(prompt.stderr.contains("line 2: unknown command"))
        #expect(prompt.status == 64)
        let global = try await workspace.run(["--help"])
        #expect(global.stdout.contains("uptime"))
        #expect(!global.stdout.contains("fact <n>  "))
        let once = try await workspace.run(["fact", "28"])
        #expect(once.status == 64)
        #expect(once.stderr.contains("unknown subcommand 'fact'"))
        #expect(once.stderr.contains("Run 'app-shell --help' for usage."))
    }

    @Test func anyModuleCommandRunsOneShot() async throws {
        let workspace = try Workspace()
        let uptime = try await workspace.run(["uptime"])
        #expect(uptime.status == 0, "\(uptime.stderr)")
        #expect(uptime.stdout.hasPrefix("up "))
        let uptimeJSON = try await workspace.run(["uptime", "--json"])
        let object = (JSONLines.data(uptimeJSON.stdout, type: "result") as? [String: Any])?["value"] as? [String: Any]
        #expect(object?["seconds"] is Double)

        let login = try await workspace.run(["login", "alice"], input: "wonderland\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("Logged in as Alice (alice)."))
        let whoami = try await workspace.run(["whoami", "--json"])
        let identity = (JSONLines.data(whoami.stdout, type: "result") as? [String: Any])?["value"] as? [String: Any]
        #expect(identity?["authenticated"] as? Bool == true)
        #expect((identity?["user"] as? [String: Any])?["username"] as? String == "alice")
        #expect(!whoami.all.contains("wonderland"))

        let history = try await workspace.run(["history"])
        #expect(history.status == 0)
        #expect(history.stdout.contains("(alice)"))
    }

    @Test func oneShotStatusIsTheCommands() async throws {
        let workspace = try Workspace()
        let wrong = try await workspace.run(["login", "alice"], input: "not-it\n")
        #expect(wrong.status == 77)
        #expect(!wrong.all.contains("not-it"))
        let noPassword = try await workspace.run(["login", "alice"], input: "")
        #expect(noPassword.status == 1)
        #expect(noPassword.stderr.contains("no password was read"))
        let usage = try await workspace.run(["whoami", "extra"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("usage: whoami"))
    }

    @Test func aPasswordLineAfterAWrongLoginIsNeverRunOrEchoed() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["-q"], input: "login alice extra\nsecret-one\nlogin\nsecret-two\nwhoami\n")
        #expect(result.status == 64)
        #expect(result.stderr.contains("usage: login <user>"))
        #expect(!result.all.contains("secret-one"))
        #expect(!result.all.contains("secret-two"))
        #expect(result.stdout.contains("Not logged in."), "the script goes on with the line after the password")
    }

    @Test func aPasswordForAModuleThatIsMissingIsNeverEchoed() async throws {
        // No module declares `login`, so the shell cannot know the next line is a secret: it is a command, an
        // unknown one, and like every unknown command it is named by its line number, never repeated.
        let workspace = try Workspace(manifest: Self.numbersOnly)
        let result = try await workspace.run(["-q"], input: "login alice\nsecret-three\nfact 6\n")
        #expect(result.status == 64)
        #expect(result.stderr.contains("line 1: unknown command"))
        #expect(result.stderr.contains("line 2: unknown command"))
        #expect(!result.all.contains("secret-three"))
        #expect(result.stdout.contains("6 is a perfect number"))
    }

    @Test func wordsTypedAsCommandsCannotInjectTerminalEscapes() async throws {
        let workspace = try Workspace()
        let once = try await workspace.run(["x\u{1B}]0;title\u{7}y"])
        #expect(once.status == 64)
        #expect(once.stderr.contains("unknown subcommand 'x\\u{1b}]0;title\\u{7}y'"))
        #expect(!once.all.contains("\u{1B}"))
    }

    @Test func signalsStopAOneShotCommandThatIsStillReading() async throws {
        // `login` waits for a password on an open pipe; SIGTERM must end it at once, in order, with 143.
        let workspace = try Workspace()
        let process = try ShellProcess.makeProcess(["login", "alice"], in: workspace.url)
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { exited.continuation.yield($0.terminationStatus) }
        try process.run()
        defer { try? stdin.fileHandleForWriting.close() }
        // Once the shell catches SIGTERM, the signal may arrive during startup or at the password read: either way
        // the shell stops with 143.
        try await Self.waitUntilHandling(SIGTERM, pid: process.processIdentifier)
        kill(process.processIdentifier, SIGTERM)
        var iterator = exited.stream.makeAsyncIterator()
        #expect(await iterator.next() == 143)
    }

    /// Polls `/proc/<pid>/status` until the process catches or ignores `signal`; 120 s is a deadlock guard only.
    /// It looks once more after every wait, so a poll whose task the busy cooperative pool resumes late still sees a
    /// handler installed meanwhile (a poll that gave up at its deadline without looking again failed once under
    /// Thread Sanitizer).
    private static func waitUntilHandling(_ signal: Int32, pid: Int32) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
                Issue.record("cannot read /proc/\(pid)/status: app-shell ended before it caught signal \(signal)")
                return
            }
            if ProcessStatus.appShellHandles(signal, status: status) { return }
            guard ContinuousClock.now < deadline else {
                Issue.record("app-shell never caught signal \(signal) within 120 s")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func aScriptExitsWithItsFirstFailedCommandsStatus() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["-q"], input: "fact 6\nlogin alice\nnope\nfact x\nwhoami\n")
        #expect(result.status == 77)
        #expect(result.stdout.contains("6 is a perfect number"))
        #expect(result.stdout.contains("Not logged in."), "the script goes on after a failure")
    }

    @Test func aModuleIsInstantiatedWhenItsCommandFirstRuns() async throws {
        let workspace = try Workspace(manifest: Self.withoutNumbers)
        let result = try await workspace.run(["-q", "--json"], input: "modules\nuptime\nmodules\n")
        #expect(result.status == 0, "\(result.stderr)")
        let states = result.stdout.components(separatedBy: #""state":""#).dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(states == ["registered", "loaded"])
    }

    @Test func reloadReleasesAModuleAndLoadsItAfresh() async throws {
        let workspace = try Workspace(manifest: Self.numbersOnly)
        let result = try await workspace.run(["-q"], input: "fact 28\nreload com.modulehost.numbers\nhistory\nreload com.example.none\n")
        #expect(result.stdout.contains("Reloaded com.modulehost.numbers."))
        #expect(result.stdout.contains("History (anonymous):\n  1. 28 is a perfect number"), "the fresh instance reads the saved history")
        #expect(result.stderr.contains("reload com.example.none: no module with identifier \"com.example.none\""))
        #expect(result.status == 64)
    }

    @Test func reloadingAuthKeepsTheSignedInUserEverywhere() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["-q"], input: "login bob\nbuilder\nreload com.modulehost.auth\nwhoami\nfact 4\nhistory\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Reloaded com.modulehost.auth."))
        #expect(result.stdout.contains("Bob the Builder (bob), session until"))
        #expect(result.stdout.contains("History (bob):"))
    }

    @Test func numbersFollowTheHostsSessionWithoutImportingAuth() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["-q"], input: "fact 12\nlogin alice\nwonderland\nfact 7\nhistory\nlogout\nhistory\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("History (alice):\n  1. 7 is"))
        #expect(result.stdout.contains("History (anonymous):\n  1. 12 is"))
    }
}
