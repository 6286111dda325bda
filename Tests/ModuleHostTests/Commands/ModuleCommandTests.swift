import Foundation
import Testing
@testable import ModuleHost
import TestSupport
import ModuleHostTesting

@Suite("Module commands", .timeLimit(.minutes(5)))
struct ModuleCommandTests {
    private static let alpha = "ModuleHostTests.CommandAlphaModule"
    private static let clash = "ModuleHostTests.CommandClashModule"

    /// A manager with the recorder injected and `types` (test module class names) registered from a manifest.
    private func manager(_ types: String..., recorder: LoadRecorder = LoadRecorder(),
                         reserved: Set<String> = []) throws -> ModuleManager {
        let manager = ModuleManager(reservedCommandNames: reserved)
        manager.provide(recorder, as: LoadRecorder.self)
        try register(types, in: manager)
        return manager
    }

    private func register(_ types: [String], in manager: ModuleManager) throws(ManifestError) {
        let list = types.map { "\"ModuleHostTests.\($0)\"" }.joined(separator: ", ")
        try manager.registerModules(from: Data("{\"modules\": [\(list)]}".utf8))
    }

    private func state(of identifier: ModuleIdentifier, in manager: ModuleManager) -> ModuleDescription.State? {
        manager.modules.first { $0.identifier == identifier }?.state
    }

    private func run(_ name: String, _ arguments: [String] = [], in manager: ModuleManager,
                     io: ScriptedCommandIO = ScriptedCommandIO()) async throws(ModuleCommandError) -> ModuleCommand.Output {
        try await manager.runCommand(name, context: ModuleCommand.Context(arguments: arguments, manager: manager, io: io))
    }

    // MARK: Listing

    @Test func moduleCommandsListsDeclaredCommandsInRegistrationOrderWithoutLoadingAnything() throws {
        let recorder = LoadRecorder()
        let manager = try manager("CommandBetaModule", "CommandAlphaModule", "BaseModule", "CommandBrokenModule",
                                  recorder: recorder)
        let commands = manager.moduleCommands()
        #expect(commands.map(\.module) == ["test.commands.beta"] + Array(repeating: "test.commands.alpha", count: 5)
                + ["test.commands.broken"])
        #expect(commands.map(\.command.name) == ["beta", "echo", "deny", "explode", "needs-missing", "usage-check", "broken"])
        let echo = try #require(commands.first { $0.command.name == "echo" }?.command)
        #expect(echo.usage == "echo <words...>")
        #expect(echo.summary == "echoes its arguments and what it reads")
        #expect(commands.first { $0.command.name == "beta" }?.command.usage == "beta")
        #expect(recorder.events.isEmpty)
        #expect(manager.modules.allSatisfy { $0.state == .registered })
    }

    // MARK: Escaping

    /// `fact <arg>` repeated an argument it could not read back raw, so escape sequences from
    /// the command line reached the terminal. The library's command path escapes whatever a module prints: its
    /// output's text, its error's message and every line it writes, keeping line breaks and tabs.
    @Test func whatACommandPrintsCannotDriveTheTerminal() async throws {
        let manager = try manager("CommandAlphaModule")
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}"
        let io = ScriptedCommandIO(lines: [hostile + "\tAda"], secrets: [""])
        let output = try await run("echo", [hostile, "two\nlines"], in: manager, io: io)
        let written = io.written.joined(separator: "\n")
        for text in [output.text, written] {
            #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" }, "\(text.debugDescription)")
        }
        #expect(output.text == "hello \\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{202e}\tAda")
        #expect(written == "arguments: \\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{202e} two\nlines")
        let refusing = try self.manager("CommandRefusingModule")
        let error = await #expect(throws: ModuleCommandError.self) { try await run("refuse", [hostile], in: refusing) }
        #expect(error?.code == .usage)
        #expect(error?.message == "'\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{202e}' is not a word\nsee: help")
        let unknown = await #expect(throws: ModuleCommandError.self) { try await run("no\u{1B}[2Jpe", in: manager) }
        #expect(unknown?.message == "unknown command 'no\\u{1b}[2Jpe'")
    }

    // MARK: Running

    @Test func runningACommandLoadsItsModuleOnceAndPassesArgumentsAndIOThrough() async throws {
        let recorder = LoadRecorder()
        let manager = try manager("CommandAlphaModule", "CommandBetaModule", recorder: recorder)
        #expect(state(of: "test.commands.alpha", in: manager) == .registered)

        let io = ScriptedCommandIO(lines: ["Ada"], secrets: ["s3cret"])
        let context = ModuleCommand.Context(arguments: ["one", "two words"], manager: manager, io: io, wantsStructuredOutput: true)
        let output = try await manager.runCommand("echo", context: context)
        #expect(state(of: "test.commands.alpha", in: manager) == .loaded)
        #expect(state(of: "test.commands.beta", in: manager) == .registered)
        #expect(output.text == "hello Ada")
        #expect(output.value as? EchoValue == EchoValue(arguments: ["one", "two words"], name: "Ada", secret: "s3cret", structured: true))
        #expect(io.prompts == ["line: name: ", "secret: secret: "])
        #expect(io.written == ["arguments: one two words"])

        // Input that ran out reaches the command as nil; the module is not loaded again.
        let empty = ScriptedCommandIO()
        let second = try await run("echo", in: manager, io: empty)
        #expect(second.text == "hello <none>")
        #expect(second.value as? EchoValue == EchoValue(arguments: [], name: nil, secret: nil, structured: false))
        #expect(empty.written == ["arguments: "])
        #expect(recorder.count(of: "load alpha") == 1)

        #expect(try await run("beta", in: manager).text == "beta ran")
        #expect(recorder.events == ["load alpha", "load beta", "beta ran"])
    }

    @Test func anUnknownCommandIsUnknownCommand() async throws {
        let recorder = LoadRecorder()
        let manager = try manager("CommandAlphaModule", recorder: recorder)
        let error = try await #require(throws: ModuleCommandError.self) { try await run("ehco", in: manager) }
        #expect(error.code == .unknownCommand)
        #expect(error.message.contains("ehco"))
        #expect(recorder.events.isEmpty)
    }

    @Test func aModuleThatFailsToLoadIsModuleUnavailable() async throws {
        let recorder = LoadRecorder()
        let manager = try manager("CommandBrokenModule", recorder: recorder)
        let error = try await #require(throws: ModuleCommandError.self) { try await run("broken", in: manager) }
        #expect(error.code == .moduleUnavailable)
        #expect(error.message.contains("test.commands.broken"))
        #expect(error.message.contains("deliberate failure in moduleDidLoad"))
        #expect(recorder.events.isEmpty)  // the command body never ran
        #expect(state(of: "test.commands.broken", in: manager) == .failed)
    }

    @Test func aCommandErrorKeepsItsCode() async throws {
        let manager = try manager("CommandAlphaModule")
        let denied = try await #require(throws: ModuleCommandError.self) { try await run("deny", in: manager) }
        #expect(denied.code == .permissionDenied)
        #expect(denied.message == "deny: not for you")
        let usage = try await #require(throws: ModuleCommandError.self) { try await run("usage-check", ["a", "b"], in: manager) }
        #expect(usage.code == .usage)
        #expect(usage.message == "usage: usage-check <word>")
        #expect(try await run("usage-check", ["word"], in: manager).text == "word")
    }

    @Test func anyOtherErrorIsFailedAndAResolutionErrorIsModuleUnavailable() async throws {
        let manager = try manager("CommandAlphaModule")
        let failed = try await #require(throws: ModuleCommandError.self) { try await run("explode", in: manager) }
        #expect(failed.code == .failed)
        #expect(failed.message.contains("explode"))
        #expect(failed.message.contains("the command exploded"))
        let unavailable = try await #require(throws: ModuleCommandError.self) { try await run("needs-missing", in: manager) }
        #expect(unavailable.code == .moduleUnavailable)
        #expect(unavailable.message.contains("UnprovidedService"))
    }

    // MARK: Validation

    @Test func twoModulesDeclaringOneCommandIsOneErrorNamingBoth() throws {
        let manager = ModuleManager()
        let error = try #require(throws: ManifestError.self) {
            try register(["CommandAlphaModule", "CommandClashModule"], in: manager)
        }
        let duplicates = error.errors.filter { $0.code == .duplicateCommand }
        #expect(error.errors.count == 1)
        #expect(duplicates.count == 1)
        let message = try #require(duplicates.first?.message)
        #expect(message.contains(Self.alpha))
        #expect(message.contains(Self.clash))
        #expect(message.contains("\"echo\""))
        #expect(manager.modules.isEmpty)
        #expect(manager.moduleCommands().isEmpty)
    }

    @Test func aSecondManifestCannotDeclareACommandTheFirstDeclares() throws {
        let manager = ModuleManager()
        try register(["CommandAlphaModule"], in: manager)
        let error = try #require(throws: ManifestError.self) { try register(["CommandClashModule"], in: manager) }
        #expect(error.errors.map(\.code) == [.duplicateCommand])
        #expect(error.errors.first?.message.contains(Self.alpha) == true)
        #expect(error.errors.first?.message.contains(Self.clash) == true)
        #expect(manager.modules.map(\.identifier) == ["test.commands.alpha"])
    }

    @Test func aReservedCommandNameIsADuplicate() throws {
        let reserved = ModuleManager(reservedCommandNames: ["help", "quit"])
        let error = try #require(throws: ManifestError.self) { try register(["CommandReservedModule"], in: reserved) }
        #expect(error.errors.map(\.code) == [.duplicateCommand])
        #expect(error.errors.first?.message.contains("ModuleHostTests.CommandReservedModule") == true)
        #expect(error.errors.first?.message.contains("\"help\"") == true)
        #expect(reserved.modules.isEmpty)

        // Without the reservation the same module is fine.
        let open = ModuleManager()
        try register(["CommandReservedModule"], in: open)
        #expect(open.moduleCommands().map(\.command.name) == ["help"])
    }

    @Test func invalidCommandNamesAreInvalidCommand() throws {
        let manager = ModuleManager()
        let error = try #require(throws: ManifestError.self) { try register(["CommandInvalidNamesModule"], in: manager) }
        #expect(error.errors.map(\.code) == Array(repeating: .invalidCommand, count: CommandInvalidNamesModule.invalidNames.count))
        for name in CommandInvalidNamesModule.invalidNames {
            // Named escaped, so a control character or newline in a name cannot garble the report.
            let escaped = name.unicodeScalars.map { (0x20..<0x7F).contains($0.value) ? String($0) : "\\u{\(String($0.value, radix: 16))}" }
            #expect(error.errors.contains { $0.message.contains("command named \"\(escaped.joined())\"") }, "\(name)")
            // Only printable ASCII in the report, so a name cannot garble it or the terminal.
            #expect(error.errors.allSatisfy { $0.message.unicodeScalars.allSatisfy { (0x20..<0x7F).contains($0.value) } })
        }
        #expect(!error.errors.contains { $0.message.contains("valid-one") })
        #expect(manager.modules.isEmpty)
    }

    @Test func registeringInCodeChecksCommandsToo() throws {
        let manager = ModuleManager(reservedCommandNames: ["help"])
        try manager.register(CommandAlphaModule.self)

        let clash = try #require(throws: ManifestError.self) { try manager.register(CommandClashModule.self) }
        #expect(clash.errors.map(\.code) == [.duplicateCommand])
        #expect(clash.errors.first?.message.contains(Self.alpha) == true)
        #expect(clash.errors.first?.message.contains(Self.clash) == true)

        let reserved = try #require(throws: ManifestError.self) { try manager.register(CommandReservedModule.self) }
        #expect(reserved.errors.map(\.code) == [.duplicateCommand])

        let invalid = try #require(throws: ManifestError.self) { try manager.register(CommandInvalidNamesModule.self) }
        #expect(invalid.errors.map(\.code) == Array(repeating: .invalidCommand, count: CommandInvalidNamesModule.invalidNames.count))

        // Nothing rejected was registered, and a manifest module clashing with a code module is rejected too.
        #expect(manager.modules.map(\.identifier) == ["test.commands.alpha"])
        let fromManifest = try #require(throws: ManifestError.self) { try register(["CommandClashModule"], in: manager) }
        #expect(fromManifest.errors.map(\.code) == [.duplicateCommand])
        try manager.register(CommandBetaModule.self)
        #expect(manager.moduleCommands().map(\.command.name) == ["echo", "deny", "explode", "needs-missing", "usage-check", "beta"])
    }
}

/// Declares `refuse`, whose usage error repeats its argument raw, as a careless module would.
final class CommandRefusingModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.commands.refusing"
    static var contributions: [Contribution] { commands.map(Contribution.command) }
    static let commands: [ModuleCommand] = [
        ModuleCommand("refuse", summary: "refuses its argument, repeating it") { context in
            throw ModuleCommandError(.usage, "'\(context.arguments.joined())' is not a word\nsee: help")
        },
    ]
    init(context: any ModuleContext) {}
}
