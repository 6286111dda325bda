import Foundation
import ModuleHost
import Testing

@testable import NumbersModule

/// A number of the wrong kind or out of range names the field and the allowed range, the
/// same way at validation (manifest registration) and when decoded by any decoder.
@Suite("NumbersConfiguration checks")
struct NumbersConfigurationTests {
    static let rejected: [(field: String, value: String, message: String)] = [
        ("historyLimit", "5.5", "expected an integer from 1 to 10000, found 5.5"),
        ("historyLimit", "0", "expected an integer from 1 to 10000, found 0"),
        ("historyLimit", "10001", "expected an integer from 1 to 10000, found 10001"),
        ("historyLimit", "1e300", "expected an integer from 1 to 10000, found 1e+300"),
        ("historyLimit", #""10""#, "expected an integer from 1 to 10000, found a string"),
        ("historyLimit", "null", "expected an integer from 1 to 10000, found null"),
        ("historyLimit", "[1]", "expected an integer from 1 to 10000, found an array"),
        ("primeTableBound", "1e300", "expected an integer from 2 to 268435456, found 1e+300"),
        ("primeTableBound", "1", "expected an integer from 2 to 268435456, found 1"),
        ("primeTableBound", "268435457", "expected an integer from 2 to 268435456, found 268435457"),
        ("primeTableBound", "true", "expected an integer from 2 to 268435456, found a boolean"),
        ("primeTableBound", "99999999999999999999999", "expected an integer from 2 to 268435456"),
        ("stateDirectory", "5", "expected a string (a folder path), found 5"),
    ]

    /// 1e-400 underflows to 0.0 as a Double, but it is not 0: the manifest's message does not say 0. (Foundation's
    /// JSONDecoder reads it as the integer 0, so this holds for the manifest's decoder only.)
    @Test func aNumberThatUnderflowsIsNotCalledZero() throws {
        let manifest = #"{"modules": [{"type": "NumbersModule.NumbersModule", "config": {"historyLimit": 1e-400}}]}"#
        let error = try #require(throws: ManifestError.self) { try ModuleManager().registerModules(from: Data(manifest.utf8)) }
        #expect(error.diagnostics.first?.message == "expected an integer from 1 to 10000, found a number that is not an integer",
                "\(error.diagnostics)")
    }

    @Test(arguments: rejected)
    func aBadNumberIsAManifestErrorNamingTheFieldAndRange(field: String, value: String, message: String) throws {
        let manifest = #"{"modules": [{"type": "NumbersModule.NumbersModule", "config": {"\#(field)": \#(value)}}]}"#
        let error = try #require(throws: ManifestError.self) { try ModuleManager().registerModules(from: Data(manifest.utf8)) }
        #expect(error.diagnostics.count == 1)
        #expect(error.diagnostics.first?.path == "modules[0].config.\(field)")
        #expect(error.diagnostics.first?.message.contains(message) == true, "\(error.diagnostics.first?.message ?? "")")
        #expect(error.diagnostics.first?.message.contains("not valid JSON") == false)
    }

    @Test(arguments: rejected)
    func anyDecoderLocatesTheBadField(field: String, value: String, message: String) throws {
        let error = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(NumbersConfiguration.self, from: Data(#"{"\#(field)": \#(value)}"#.utf8))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == [field])
        #expect(context.debugDescription.contains(message))
    }

    @Test func theExtremesAndDefaultsAreAccepted() throws {
        let decoder = JSONDecoder()
        let largest = try decoder.decode(NumbersConfiguration.self, from: Data(#"{"historyLimit": 10000, "primeTableBound": 268435456, "stateDirectory": "s"}"#.utf8))
        #expect(largest.historyLimit == 10_000 && largest.primeTableBound == PrimeTable.maximumBound && largest.stateDirectory == "s")
        let smallest = try decoder.decode(NumbersConfiguration.self, from: Data(#"{"historyLimit": 1, "primeTableBound": 2}"#.utf8))
        #expect(smallest.historyLimit == 1 && smallest.primeTableBound == 2)
        let defaults = try decoder.decode(NumbersConfiguration.self, from: Data("{}".utf8))
        #expect(defaults.historyLimit == 100 && defaults.primeTableBound == PrimeTable.defaultBound && defaults.stateDirectory == nil)
    }

    @Test func theInitializerClampsToTheSameRanges() {
        let configuration = NumbersConfiguration(historyLimit: 0, primeTableBound: .max)
        #expect(configuration.historyLimit == 1)
        #expect(configuration.primeTableBound == PrimeTable.maximumBound)
        #expect(NumbersConfiguration(historyLimit: 20_000).historyLimit == 10_000)
    }
}
