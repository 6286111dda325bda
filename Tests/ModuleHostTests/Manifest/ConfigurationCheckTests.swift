import Foundation
import Testing
@testable import ModuleHost

/// A module whose configuration checks a range itself, as AuthModule and NumbersModule do.
final class CheckedConfigModule: ConfigurableModule {
    struct Configuration: Decodable, Sendable {
        struct Options: Decodable, Sendable {
            var verbose = false

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                verbose = try container.decodeIfPresent(Bool.self, forKey: .verbose) ?? false
            }

            enum CodingKeys: String, CodingKey { case verbose }
        }

        let historyLimit: Int
        let ratio: Double?
        let small: Int8?
        let big: Int64?
        let options: Options?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            historyLimit = try container.decodeIfPresent(Int.self, forKey: .historyLimit) ?? 100
            ratio = try container.decodeIfPresent(Double.self, forKey: .ratio)
            small = try container.decodeIfPresent(Int8.self, forKey: .small)
            big = try container.decodeIfPresent(Int64.self, forKey: .big)
            options = try container.decodeIfPresent(Options.self, forKey: .options)
            guard (1...10_000).contains(historyLimit) else {
                throw DecodingError.dataCorruptedError(forKey: .historyLimit, in: container,
                                                       debugDescription: "expected an integer from 1 to 10000")
            }
        }

        enum CodingKeys: String, CodingKey { case historyLimit, ratio, small, big, options }
    }

    static let moduleIdentifier: ModuleIdentifier = "test.checked-config"
    init(context: any ModuleContext) {}
}

/// The host's part: a config is checked at validation as fully as at load.
///
/// Came from Regression/ (added in 439840a, when configs came to be decoded over the parser's tree);
/// now filed under the feature it protects.
@Suite("Configuration checks")
struct ConfigurationCheckTests {
    private func diagnostics(config: String) -> [ManifestDiagnostic] {
        let json = """
            {"modules": [{"type": "ModuleHostTests.CheckedConfigModule",
              "config": \(config)}]}
            """
        do {
            try ModuleManager.forTesting().registerModules(from: Data(json.utf8), file: "modules.json")
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test func aMisspeltKeyIsAnErrorWithASuggestion() throws {
        let found = diagnostics(config: #"{"histroyLimit": 10}"#)
        let diagnostic = try #require(found.first)
        #expect(found.count == 1)
        #expect(diagnostic.code == .invalidConfig)
        #expect(diagnostic.path == "modules[0].config.histroyLimit")
        #expect(diagnostic.location == ManifestDiagnostic.Location(line: 2, column: 14))
        #expect(diagnostic.message.contains(#"unknown field "histroyLimit""#))
        #expect(diagnostic.suggestion == #"did you mean "historyLimit"?"#)
    }

    @Test func aMisspeltKeyInANestedObjectIsFound() throws {
        let found = diagnostics(config: #"{"options": {"verbos": true}}"#)
        #expect(found.map(\.path) == ["modules[0].config.options.verbos"])
        #expect(found.first?.suggestion == #"did you mean "verbose"?"#)
    }

    @Test func aRepeatedKeyIsAnError() throws {
        let found = diagnostics(config: #"{"historyLimit": 10, "historyLimit": 20}"#)
        #expect(found.map(\.path) == ["modules[0].config.historyLimit"])
        #expect(found.first?.message == #"field "historyLimit" appears more than once"#)
        #expect(found.first?.location == ManifestDiagnostic.Location(line: 2, column: 34))
    }

    @Test(arguments: ["1e300", "5.5", "-1e20", "9223372036854775808"])
    func aNumberThatIsNoIntNamesTheFieldAndTheRange(number: String) throws {
        let found = diagnostics(config: #"{"historyLimit": \#(number)}"#)
        let diagnostic = try #require(found.first)
        #expect(found.count == 1)
        #expect(diagnostic.path == "modules[0].config.historyLimit")
        #expect(diagnostic.message == "expected an integer from \(Int.min) to \(Int.max), found \(number)")
        #expect(!diagnostic.message.contains("not valid JSON"))
        #expect(diagnostic.location == ManifestDiagnostic.Location(line: 2, column: 30))
    }

    @Test func aSmallIntegerTypeNamesItsOwnRange() {
        let found = diagnostics(config: #"{"small": 300}"#)
        #expect(found.map(\.message) == ["expected an integer from -128 to 127, found 300"])
    }

    @Test func theModulesOwnCheckIsLocatedWithItsMessage() throws {
        let found = diagnostics(config: #"{"historyLimit": 20000}"#)
        let diagnostic = try #require(found.first)
        #expect(found.count == 1)
        #expect(diagnostic.path == "modules[0].config.historyLimit")
        #expect(diagnostic.message == "expected an integer from 1 to 10000")
        #expect(diagnostic.location == ManifestDiagnostic.Location(line: 2, column: 30))
    }

    @Test func aWrongKindNamesWhatWasExpected() {
        let found = diagnostics(config: #"{"ratio": "high"}"#)
        #expect(found.map(\.message) == ["expected a number, found a string"])
        #expect(found.map(\.path) == ["modules[0].config.ratio"])
    }

    @Test func aValidConfigDecodesExactly() throws {
        let configuration = ModuleConfiguration(json: Data(#"{"historyLimit": 1e3, "big": 9007199254740993, "options": {}}"#.utf8))
        let decoded = try configuration.decode(CheckedConfigModule.Configuration.self)
        #expect(decoded.historyLimit == 1000)
        #expect(decoded.big == 9_007_199_254_740_993)
        #expect(diagnostics(config: #"{"historyLimit": 7, "ratio": 0.5, "small": -3, "options": {"verbose": true}}"#).isEmpty)
    }

    @Test func manyUnknownKeysStayBounded() {
        let keys = (0..<5000).map { "\"k\($0)\": 1" }.joined(separator: ",")
        let found = diagnostics(config: "{\(keys)}")
        #expect(found.count == DiagnosticSink.maximumDiagnostics + 1)
        #expect(found.last?.code == .tooManyProblems)
    }
}
