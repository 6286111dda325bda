import AuthModule
import Foundation
import ModuleHost
import NumbersModule

/// Serves commands after startup: a prompt on a terminal, one command per line otherwise.
struct CommandLoop {
    let runtime: HostRuntime
    let events: ShellEvents
    let invocation: Invocation

    private var commands: ShellCommands {
        ShellCommands(runtime: runtime, invocation: invocation)
    }

    /// How the loop ended.
    enum Ending {
        case quit, endOfInput, signal(Int32)
    }

    /// Runs until `quit`, end of input or a signal; returns how it ended and whether a log-in failed.
    func run() async -> (ending: Ending, loginFailed: Bool) {
        let console = runtime.console
        let interactive = console.inputIsTerminal
        var iterator = events.stream.makeAsyncIterator()
        var loginFailed = false
        if interactive {
            console.out("Type 'help' for commands.")
        }
        runtime.manager.initiator.hostDidBecomeIdle()
        while true {
            if interactive { console.outPartial(console.styled("app-shell> ", .bold)) }
            events.requestLine()
            guard let event = await iterator.next() else { return (.endOfInput, loginFailed) }
            let line: String
            switch event {
            case .line(let text): line = text
            case .endOfInput:
                if interactive { console.out() }
                return (.endOfInput, loginFailed)
            case .signal(let number):
                if interactive { console.out() }
                return (.signal(number), loginFailed)
            }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let name = words.first, !name.hasPrefix("#") else { continue }
            let arguments = Array(words.dropFirst())
            switch name {
            case "quit", "exit":
                return (.quit, loginFailed)
            case "login":
                switch await logIn(arguments, iterator: &iterator) {
                case .succeeded, .notAttempted: break
                case .failed: loginFailed = true
                case .interrupted(let ending): return (ending, loginFailed)
                }
            default:
                await commands.run(name, arguments)
            }
        }
    }

    /// How a `login` command ended; only `failed` (wrong credentials) makes a scripted run exit 77.
    private enum LoginResult {
        case succeeded, failed, notAttempted, interrupted(Ending)
    }

    private func logIn(_ arguments: [String], iterator: inout AsyncStream<ShellEvent>.Iterator) async -> LoginResult {
        let console = runtime.console
        guard arguments.count == 1, let username = arguments.first else {
            console.error("usage: login <user>")
            return .notAttempted
        }
        guard let auth = commands.authService() else { return .notAttempted }
        if console.inputIsTerminal { console.outPartial("Password for \(username): ") }
        events.requestLine(echo: false)
        switch await iterator.next() {
        case .line(let password)?:
            do {
                let user = try await auth.logIn(username: username, password: password)
                console.out("Logged in as \(user.displayName) (\(user.username)).")
                return .succeeded
            } catch {
                console.error(error.description)
                return .failed
            }
        case .signal(let number)?:
            return .interrupted(.signal(number))
        case .endOfInput?, nil:
            console.error("login \(username): no password given before the end of input")
            return .interrupted(.endOfInput)
        }
    }
}
