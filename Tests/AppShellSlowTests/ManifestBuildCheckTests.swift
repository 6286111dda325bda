import Foundation
import Testing
import TestSupport
import ModuleHostTesting

/// The build checks `modules.json`: app-shell applies the ManifestCheck plugin, which names each module type the
/// manifest lists in generated code, so a mistyped name fails `swift build` with an error located at the entry's
/// line in `modules.json`. Built from the copy ``DriftHost`` keeps (incrementally, inside ``BuildQueue``).
@Suite("Manifest checked by the build", .enabled(if: SlowLane.isRequested, SlowLane.reason), .disabled(if: Sanitizers.threadSanitizerIsActive, "builds a package; proves no concurrency property"),
       .timeLimit(.minutes(30)))
struct ManifestBuildCheckTests {
    /// The root manifest with one name changed; the entry is on line 3.
    private static func manifest(naming type: String) -> String {
        """
        {"modules": [
          "AuthModule.AuthModule",
          {"type": "\(type)", "config": {"historyLimit": 100}},
          {"type": "Missing.Disabled", "enabled": false},
          {"type": "GreeterPlugin.GreeterModule", "library": "plugins/libGreeterPlugin.so"},
          "ClockModule.ClockModule"
        ]}
        """
    }

    /// Each name (as written in the JSON) and a part of the error the build must give at its line; `nil`: any error.
    @Test(arguments: [
        ("NumbersModule.NumberModule", "cannot find 'NumbersModule::NumberModule' in scope"),
        ("NumbersModul.NumbersModule", "no such module 'NumbersModul'"),
        // A type that is not a module is named so, not with a conversion the user did not write.
        ("NumbersInterface.NumberFact", "static method 'module' requires that 'NumberFact' conform to 'ModuleProtocol'"),
        // Escapes are read as the run reads them; a keyword and a trailing `.self` are names, not Swift.
        (#"ClockModule\u002EClockModul"#, "cannot find 'ClockModule::ClockModul' in scope"),
        ("ClockModule.ClockModule.self", nil),
        ("class.Foo", nil),
    ] as [(String, String?)])
    func aMistypedModuleNameFailsTheBuildAtItsLineInTheManifest(type: String, error: String?) async throws {
        let result = try await BuildQueue.shared.enqueue { try await DriftHost.build(manifest: Self.manifest(naming: type)) }
        #expect(result.status != 0, "the build passed with \(type) in modules.json")
        #expect(result.all.contains("modules.json:3:") && result.all.contains("error: \(error ?? "")"), "\(result.all.suffix(3_000))")
        #expect(!result.all.contains("Missing"), "a disabled entry is left to the run:\n\(result.all.suffix(3_000))")
        #expect(!result.all.contains("GreeterPlugin"), "a plugin entry is left to the run:\n\(result.all.suffix(3_000))")
    }

    /// A service declared with its module named (`.service(ClockService.self, from: ClockModule.self) { $0 }`) is a
    /// proof the compiler checks: a module that stops conforming fails the build at that declaration.
    @Test func aServiceTheModuleDoesNotProvideFailsTheBuildAtItsDeclaration() async throws {
        let source = try String(contentsOf: PluginToolchain.root.appendingPathComponent(DriftHost.Change.serviceNotProvided.file), encoding: .utf8)
        let line = try #require(source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("providedServices") }) + 1
        let result = try await BuildQueue.shared.enqueue { try await DriftHost.attempt(.serviceNotProvided) }
        #expect(result.status != 0, "the build passed with a module that does not conform to the service it declares")
        #expect(result.all.contains(try Regex("ClockModule\\.swift:\(line):[0-9]+: error: ")), "\(result.all.suffix(3_000))")
        #expect(result.all.contains("ClockService"), "\(result.all.suffix(3_000))")
    }

    /// Malformed JSON fails the build at its line, with the run's reader's message; a control character in the
    /// manifest's text, quoted in that message, cannot end the generated string literal.
    @Test func malformedJSONFailsTheBuildAtItsLine() async throws {
        let manifest = Self.manifest(naming: "NumbersModule.NumbersModule")
            .replacingOccurrences(of: #""config": {"historyLimit": 100}"#, with: "\"eager\": tru\u{1}e")
        let result = try await BuildQueue.shared.enqueue { try await DriftHost.build(manifest: manifest) }
        #expect(result.status != 0, "the build passed with malformed JSON")
        #expect(result.all.contains("modules.json:3:") && result.all.contains("error: malformed JSON at column"), "\(result.all.suffix(3_000))")
        #expect(!result.all.contains("unterminated string literal"), "\(result.all.suffix(3_000))")
    }

    @Test func theManifestAsItIsBuildsWithAByteOrderMarkToo() async throws {
        for manifest in [Self.manifest(naming: "NumbersModule.NumbersModule"), "\u{FEFF}" + Self.manifest(naming: "NumbersModule.NumbersModule")] {
            let result = try await BuildQueue.shared.enqueue { try await DriftHost.build(manifest: manifest) }
            #expect(result.status == 0, "\(result.all.suffix(3_000))")
        }
    }
}
