import ModuleHostTesting
import Testing

/// A module written against the names that contributions replaced must not compile and be silently ignored: it
/// fails to compile, with a message that says what to write instead (the near misses of issue 23's change).
@Suite("Replaced names")
struct ReplacedNamesTests {
    @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, "compiles snippets; proves no concurrency property"),
          arguments: [
              ("StartupOperationsProviding", "static let startupOperations: [ModuleStartupOperation] = []", ".startupOperation(_:)"),
              ("ModuleCommandsProviding", "static let commands: [ModuleCommand] = []", ".command(_:)"),
              ("ModuleRoutesProviding", "static let routes: [ModuleRoute] = []", ".route(_:)"),
          ])
    func aModuleWrittenAgainstAReplacedNameFailsToCompileSayingWhatToWrite(name: String, member: String, hint: String) async throws {
        let source = """
            import ModuleHost
            import ModuleHostRouting
            final class OldModule: \(name) {
                static let moduleIdentifier: ModuleIdentifier = "com.example.old"
                \(member)
                init() {}
            }
            """
        let compiler = try #require(SnippetCompiler.locate(), "swiftc is not on PATH")
        let result = try await compiler.typecheck(SnippetUnit(kind: .standalone, source: source, origin: name))
        #expect(result.status != 0)
        #expect(result.stderr.contains("error: '\(name)'") && result.stderr.contains(hint), "\(result.stderr)")
    }
}
