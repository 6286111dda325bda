import ModuleHostTesting
import Testing

/// The enums that a later version may extend are `@nonexhaustive`: a client outside this package that switches over
/// one must handle the cases it does not know, so a new case is an additive change, as a new error code is.
@Suite("Enums that grow")
struct GrowingEnumTests {
    private func typecheck(_ body: String, origin: String) async throws -> (status: Int32, stderr: String) {
        let compiler = try #require(SnippetCompiler.locate(), "swiftc is not on PATH")
        let source = """
            import ModuleHost
            import ModuleHostRouting
            \(body)
            """
        let result = try await compiler.typecheck(SnippetUnit(kind: .standalone, source: source, origin: origin))
        return (result.status, result.stderr)
    }

    private static let initiatorSwitch = """
        func name(of event: Initiator.Event) -> String {
            switch event {
            case .phaseStarted: "phase started"
            case .operationStarted: "operation started"
            case .operationFinished: "operation finished"
            case .phaseFinished: "phase finished"
            case .finished: "finished"
            CASE
            }
        }
        """

    private static let routerSwitch = """
        func name(of event: ModuleRouter.Event) -> String {
            switch event {
            case .willOpen: "will open"
            case .didOpen: "did open"
            case .refused: "refused"
            CASE
            }
        }
        """

    @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, "compiles snippets; proves no concurrency property"),
          arguments: [("Initiator.Event", initiatorSwitch), ("ModuleRouter.Event", routerSwitch)])
    func aSwitchOverEveryKnownCaseNeedsAnUnknownDefault(name: String, source: String) async throws {
        let exhaustive = try await typecheck(source.replacingOccurrences(of: "CASE", with: ""), origin: "\(name), known cases")
        #expect(exhaustive.status != 0, "a switch over \(name)'s known cases compiled without @unknown default")
        #expect(exhaustive.stderr.contains("may have additional unknown values"), "\(exhaustive.stderr)")

        let handled = try await typecheck(source.replacingOccurrences(of: "CASE", with: "@unknown default: \"unknown\""),
                                          origin: "\(name), with @unknown default")
        #expect(handled.status == 0, "\(handled.stderr)")
    }
}
