import Foundation
import TestSupport
import Testing

/// The shell's own messages repeat what was typed or piped (`reload <arg>`) and what a manifest holds; like a module
/// command's output, none of it may drive the terminal: control characters are written as `\u{…}`.
@Suite("The shell's own echoes")
struct ShellEchoTests {
    static let hostile = "\u{1B}[2J\u{1B}]0;pwned\u{07}evil"

    @Test func reloadOfAnUnknownModuleEchoesItsArgumentEscaped() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["-q"], input: "reload \(Self.hostile)\n")
        #expect(result.status == 64, "\(result.stderr)")
        #expect(!result.all.contains("\u{1B}") && !result.all.contains("\u{07}"), "a raw escape reached the terminal")
        #expect(result.stderr.contains(#"reload \u{1b}[2J\u{1b}]0;pwned\u{7}evil"#), "\(result.stderr)")
    }
}
