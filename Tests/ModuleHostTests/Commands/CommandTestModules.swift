import Foundation
import ModuleHost

/// A ``ModuleCommand/IO`` for tests: hands out scripted lines and secrets, and records prompts and writes.
final class ScriptedCommandIO: ModuleCommand.IO {
    private struct State: Sendable {
        var lines: [String]
        var secrets: [String]
        var prompts: [String] = []
        var written: [String] = []
    }

    private let state: Locked<State>

    init(lines: [String] = [], secrets: [String] = []) {
        state = Locked(State(lines: lines, secrets: secrets))
    }

    /// `line: <prompt>` or `secret: <prompt>`, in the order they were asked.
    var prompts: [String] { state.withLock { $0.prompts } }
    var written: [String] { state.withLock { $0.written } }

    func readLine(prompt: String) async -> String? {
        state.withLock { state in
            state.prompts.append("line: \(prompt)")
            return state.lines.isEmpty ? nil : state.lines.removeFirst()
        }
    }

    func readSecret(prompt: String) async -> String? {
        state.withLock { state in
            state.prompts.append("secret: \(prompt)")
            return state.secrets.isEmpty ? nil : state.secrets.removeFirst()
        }
    }

    func write(_ line: String) {
        state.withLock { $0.written.append(line) }
    }
}

/// The structured value the echo command returns.
struct EchoValue: Codable, Sendable, Equatable {
    let arguments: [String]
    let name: String?
    let secret: String?
    let structured: Bool
}

struct CommandExplosion: Error, CustomStringConvertible {
    var description: String { "the command exploded" }
}

/// Declares several commands that exercise what `runCommand` passes through and maps.
final class CommandAlphaModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.commands.alpha"
    static var contributions: [Contribution] { commands.map(Contribution.command) }
    static let commands: [ModuleCommand] = [
        ModuleCommand("echo", usage: "echo <words...>", summary: "echoes its arguments and what it reads") { context in
            let name = await context.io.readLine(prompt: "name: ")
            let secret = await context.io.readSecret(prompt: "secret: ")
            context.io.write("arguments: \(context.arguments.joined(separator: " "))")
            let value = EchoValue(arguments: context.arguments, name: name, secret: secret, structured: context.wantsStructuredOutput)
            return .text("hello \(name ?? "<none>")", value: value)
        },
        ModuleCommand("deny", summary: "always refuses") { _ in
            throw ModuleCommandError(.permissionDenied, "deny: not for you")
        },
        ModuleCommand("explode", summary: "throws an error of its own") { _ in
            throw CommandExplosion()
        },
        ModuleCommand("needs-missing", summary: "resolves a service nobody provides") { context in
            _ = try context.manager.bridge.resolve(UnprovidedService.self)
            return .text("")
        },
        ModuleCommand("usage-check", summary: "needs exactly one argument") { context in
            .text(try context.singleArgument(usage: "usage-check <word>"))
        },
    ]

    init(context: any ModuleContext) {}

    func moduleDidLoad(with manager: any ModuleContext) throws {
        manager.recorder?.record("load alpha")
    }
}

final class CommandBetaModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.commands.beta"
    static var contributions: [Contribution] { commands.map(Contribution.command) }
    static let commands: [ModuleCommand] = [
        ModuleCommand("beta", summary: "says beta") { context in
            context.manager.recorder?.record("beta ran")
            return .text("beta ran")
        },
    ]
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        manager.recorder?.record("load beta")
    }
}

/// Its moduleDidLoad throws, so its command can never run.
final class CommandBrokenModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.commands.broken"
    static var contributions: [Contribution] { commands.map(Contribution.command) }
    static let commands: [ModuleCommand] = [
        ModuleCommand("broken", summary: "cannot run") { context in
            context.manager.recorder?.record("broken ran")
            return .text("should not run")
        },
    ]
    init(context: any ModuleContext) {}
    func moduleDidLoad(with manager: any ModuleContext) throws {
        throw DeliberateFailure()
    }
}

/// Declares one command of its own and `echo`, which CommandAlphaModule declares too.
final class CommandClashModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.commands.clash"
    static var contributions: [Contribution] { commands.map(Contribution.command) }
    static let commands: [ModuleCommand] = [
        ModuleCommand("clash-only", summary: "unique") { _ in .text("") },
        ModuleCommand("echo", summary: "clashes with alpha") { _ in .text("") },
    ]
    init(context: any ModuleContext) {}
}

/// Declares `help`, which hosts keep for themselves.
final class CommandReservedModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.commands.reserved"
    static var contributions: [Contribution] { commands.map(Contribution.command) }
    static let commands: [ModuleCommand] = [
        ModuleCommand("help", summary: "a module's help") { _ in .text("") },
    ]
    init(context: any ModuleContext) {}
}

/// Declares one valid command and names that are not one printable ASCII word (control characters, escapes,
/// invisible characters, newlines, too long).
final class CommandInvalidNamesModule: ModuleProtocol {
    static let moduleIdentifier: ModuleIdentifier = "test.commands.invalid"
    static let invalidNames = ["", "two words", "-dash", "#hash", "a\u{0}b", "x\u{1B}[31mred", "zero\u{200B}width",
                               "nl\n", "tab\t", "\u{202E}rtl", "caf\u{E9}", String(repeating: "a", count: 65)]
    static var contributions: [Contribution] { commands.map(Contribution.command) }
    static let commands: [ModuleCommand] = (["valid-one"] + invalidNames).map { name in
        ModuleCommand(name, summary: "name \(name)") { _ in .text("") }
    }
    init(context: any ModuleContext) {}
}
