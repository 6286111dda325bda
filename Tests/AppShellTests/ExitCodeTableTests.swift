import ModuleHost
import ModuleHostRouting
import Testing

@testable import AppShell

/// The exit statuses of failed module commands and links are tables over growable codes: every code this version
/// knows has its documented status, and a code added later exits 1.
@Suite("Exit status tables")
struct ExitCodeTableTests {
    @Test func everyKnownCommandCodeHasItsDocumentedStatus() {
        #expect(Set(ShellCommands.commandExitCodes.keys) == Set(ModuleCommandError.Code.allCases))
        let expected: [ModuleCommandError.Code: ExitCode] = [
            .usage: .usage, .unknownCommand: .usage, .permissionDenied: .refused,
            .moduleUnavailable: .failure, .inputEnded: .failure, .failed: .failure,
        ]
        for code in ModuleCommandError.Code.allCases {
            #expect(ShellCommands.exitCode(for: code) == expected[code], "\(code)")
        }
        #expect(ShellCommands.exitCode(for: ModuleCommandError.Code(rawValue: "addedLater")) == .failure)
    }

    @Test func everyKnownRouteCodeHasItsDocumentedStatus() {
        #expect(Set(ShellCommands.routeExitCodes.keys) == Set(RouteError.Code.allCases))
        let refused: Set<RouteError.Code> = [.notExternal, .rejected]
        let failures: Set<RouteError.Code> = [.moduleUnavailable, .targetFailed]
        for code in RouteError.Code.allCases {
            let expected: ExitCode = refused.contains(code) ? .refused : failures.contains(code) ? .failure : .badManifest
            #expect(ShellCommands.exitCode(for: code) == expected, "\(code)")
        }
        #expect(ShellCommands.exitCode(for: RouteError.Code(rawValue: "addedLater")) == .failure)
    }
}
