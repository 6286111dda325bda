import AuthModule
import Foundation
import ModuleHost
import NumbersModule

/// The commands served at the prompt (except `login` and `quit`, which the loop handles itself).
struct ShellCommands {
    let runtime: HostRuntime
    let invocation: Invocation

    static let help: [(usage: String, summary: String)] = [
        ("help", "show this list"),
        ("login <user>", "log in (the password is read without echo on a terminal, else from the next line)"),
        ("logout", "end the session"),
        ("whoami", "show who is logged in"),
        ("fact <n>", "a fact about the integer n"),
        ("random", "a fact about a random number"),
        ("history", "the facts you looked up"),
        ("modules", "the loaded modules and their state"),
        ("services", "the services and the modules that provide them"),
        ("startup", "the startup report"),
        ("quit", "shut down and exit"),
    ]

    private var console: Console { runtime.console }
    private var bridge: ModuleBridge { runtime.manager.bridge }

    func run(_ name: String, _ arguments: [String]) async {
        switch name {
        case "help", "?": printHelp()
        case "logout": await logOut()
        case "whoami": whoami()
        case "fact":
            guard arguments.count == 1 else { return console.error("usage: fact <n>") }
            fact(arguments[0])
        case "random": random()
        case "history": history()
        case "modules": Listings(console: console, json: invocation.json).modules(runtime.manager.modules)
        case "services": Listings(console: console, json: invocation.json).services(bridge)
        case "startup": startup()
        default:
            let moduleCommands = runtime.manager.moduleCommands()
            if let (module, command) = moduleCommands.first(where: { $0.command.name == name }) {
                do {
                    console.out(try await command.run(arguments, runtime.manager))
                } catch {
                    console.error("\(name) (\(module)): \(error)")
                }
                return
            }
            let names = Self.help.map { String($0.usage.split(separator: " ")[0]) } + ["login", "quit", "exit"]
                + moduleCommands.map(\.command.name)
            let hint = Suggestions.closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
            console.error("unknown command '\(name)'\(hint)")
            printHelp()
        }
    }

    private func printHelp() {
        let moduleCommands = runtime.manager.moduleCommands()
        let width = (Self.help.map(\.usage.count) + moduleCommands.map(\.command.usage.count)).max() ?? 0
        console.out("Commands:")
        for (usage, summary) in Self.help {
            console.out("  \(usage.padding(toLength: width, withPad: " ", startingAt: 0))  \(summary)")
        }
        guard !moduleCommands.isEmpty else { return }
        console.out("Commands from modules:")
        for (module, command) in moduleCommands {
            console.out("  \(command.usage.padding(toLength: width, withPad: " ", startingAt: 0))  \(command.summary) [\(module)]")
        }
    }

    /// The AuthService, or `nil` after telling the user why there is none.
    func authService() -> (any AuthService)? {
        service(AuthService.self, from: "AuthModule.AuthModule")
    }

    private func numbers() -> (any NumberFactService)? {
        service(NumberFactService.self, from: "NumbersModule.NumbersModule")
    }

    /// The service, or `nil` after telling the user which module to add (or why its provider failed).
    private func service<Service>(_ type: Service.Type, from module: String) -> Service? {
        do {
            guard let service = try bridge.resolveIfProvided(type) else {
                console.error("no module provides \(String(describing: type)); add \(module) to the manifest")
                return nil
            }
            return service
        } catch {
            console.error(error.description)
            return nil
        }
    }

    private func logOut() async {
        guard let auth = authService() else { return }
        guard let user = auth.state.user else { return console.out("Nobody is logged in.") }
        await auth.logOut()
        console.out("Logged out \(user.username).")
    }

    private func whoami() {
        guard let auth = authService() else { return }
        switch auth.state {
        case .authenticated(let user):
            if invocation.json, let data = try? JSONEncoder.shell.encode(user) {
                return console.out(String(decoding: data, as: UTF8.self))
            }
            console.out("\(user.displayName) (\(user.username)), session until \(user.expiresAt.formatted(.iso8601))")
        case .notAuthenticated(let reason):
            let why = reason.map { " (\($0.rawValue))" } ?? ""
            console.out("Not logged in\(why).")
        }
    }

    /// Prints the fact about the integer in `text`; returns whether there was one to print.
    @discardableResult
    func fact(_ text: String) -> Bool {
        guard let number = Int64(text) else {
            console.error("'\(text)' is not an integer from \(Int64.min) to \(Int64.max)")
            return false
        }
        guard let numbers = numbers() else { return false }
        printFact(numbers.fact(about: number))
        return true
    }

    private func random() {
        guard let numbers = numbers() else { return }
        printFact(numbers.randomFact())
    }

    private func printFact(_ fact: NumberFact) {
        if invocation.json, let data = try? JSONEncoder.shell.encode(fact) {
            return console.out(String(decoding: data, as: UTF8.self))
        }
        console.out(fact.content)
    }

    private func history() {
        guard let numbers = numbers() else { return }
        let entries = numbers.history()
        if invocation.json, let data = try? JSONEncoder.shell.encode(entries) {
            return console.out(String(decoding: data, as: UTF8.self))
        }
        let owner = numbers.currentUser ?? "anonymous"
        guard !entries.isEmpty else { return console.out("No facts looked up yet (\(owner)).") }
        console.out("History (\(owner)):")
        for (index, entry) in entries.enumerated() {
            console.out("  \(index + 1). \(entry.fact.content)")
        }
    }

    private func startup() {
        let report = runtime.manager.initiator.report
        if invocation.json, let data = try? report.jsonData() {
            return console.out(String(decoding: data, as: UTF8.self))
        }
        console.out(report.renderTable(useColor: console.outputColor))
    }
}

extension JSONEncoder {
    /// Pretty, sorted, ISO 8601 dates: the shell's `--json` output.
    static var shell: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}
