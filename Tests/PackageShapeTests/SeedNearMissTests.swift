import ModuleHostTesting
import Testing

/// The two ways a module author gets the module's form wrong must fail to compile, never compile and be ignored:
/// the seed's form (`required init()`, `moduleDidLoad(with: ModuleManager)`) with only ModuleHost imported, and
/// ModuleHost's form (`init(context:)`) with ModuleHostSeed imported, whose `ModuleProtocol` is the seed's.
@Suite("Seed near misses")
struct SeedNearMissTests {
    private func typecheck(_ source: String, origin: String) async throws -> (status: Int32, stderr: String) {
        let compiler = try #require(SnippetCompiler.locate(), "swiftc is not on PATH")
        let result = try await compiler.typecheck(SnippetUnit(kind: .standalone, source: source, origin: origin))
        return (result.status, result.stderr)
    }

    @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, "compiles snippets; proves no concurrency property"))
    func theSeedsFormWithOnlyModuleHostImportedDoesNotCompile() async throws {
        let result = try await typecheck("""
            import ModuleHost
            final class AuthModule: ModuleProtocol {
                static var moduleIdentifier: ModuleIdentifier { return "com.klein.module.auth" }
                required init() { }
                func moduleDidLoad(with manager: ModuleManager) {}
            }
            """, origin: "seed form, core import")
        #expect(result.status != 0)
        #expect(result.stderr.contains("does not conform to protocol 'ModuleProtocol'"), "\(result.stderr)")
        #expect(result.stderr.contains("init(context:)"), "\(result.stderr)")
    }

    @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, "compiles snippets; proves no concurrency property"))
    func moduleHostsFormWithTheSeedsNamesImportedDoesNotCompile() async throws {
        let result = try await typecheck("""
            import ModuleHostSeed
            final class NotesModule: ModuleProtocol {
                static let moduleIdentifier: ModuleIdentifier = "com.example.notes"
                init(context: any ModuleContext) {}
            }
            """, origin: "core form, seed import")
        #expect(result.status != 0)
        #expect(result.stderr.contains("does not conform to protocol 'ModuleProtocol'"), "\(result.stderr)")
        #expect(result.stderr.contains("init()"), "\(result.stderr)")
    }

    /// The controls: each form compiles with its own import, so the two failures above are the near misses'.
    @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, "compiles snippets; proves no concurrency property"),
          arguments: [
              ("ModuleHost", "init(context: any ModuleContext) {}\n    func moduleDidLoad(with context: any ModuleContext) {}"),
              ("ModuleHostSeed", "required init() {}\n    func moduleDidLoad(with manager: ModuleManager) {}"),
          ])
    func eachFormCompilesWithItsOwnImport(library: String, members: String) async throws {
        let result = try await typecheck("""
            import \(library)
            final class SomeModule: ModuleProtocol {
                static let moduleIdentifier: ModuleIdentifier = "com.example.some"
                \(members)
            }
            """, origin: "\(library) form")
        #expect(result.status == 0, "\(result.stderr)")
    }
}
