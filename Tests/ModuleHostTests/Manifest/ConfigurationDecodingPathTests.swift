import Foundation
import Testing
@testable import ModuleHost

/// A configuration of every integer width, read by a keyed container, for the decoder's integer reading.
struct IntegerWidths: Decodable {
    let int8: Int8?
    let uint8: UInt8?
    let int64: Int64?
    let uint64: UInt64?
}

/// A configuration that asks for many keys (more than the decoder's short key list holds).
struct ManyAskedKeys: Decodable {
    let values: [String: Int]

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        var values: [String: Int] = [:]
        for index in 0..<40 {
            let key = Key(stringValue: "k\(index)")
            if let value = try container.decodeIfPresent(Int.self, forKey: key) { values[key.stringValue] = value }
        }
        self.values = values
    }
}

/// The fast paths of configuration decoding (integers read from their bytes, small objects searched in order,
/// short key lists, plain type names checked byte by byte) agree with the general ones at their edges.
///
/// Came from Regression/ (added in 6ae7b25, with the faster registration);
/// now filed under the feature it protects.
@Suite("Configuration decoding: fast paths and their edges")
struct ConfigurationDecodingPathTests {
    private func decode<T: Decodable>(_ json: String, as type: T.Type) throws(ManifestError) -> T {
        try ModuleConfiguration(json: Data(json.utf8)).decode(type)
    }

    private func messages<T: Decodable>(_ json: String, as type: T.Type) -> [String] {
        do {
            _ = try decode(json, as: type)
            return []
        } catch {
            return error.diagnostics.map(\.message)
        }
    }

    @Test func integersAtTheEdgesOfTheirWidthDecodeExactly() throws {
        let low = try decode(#"{"int8": -128, "uint8": 0, "int64": -9223372036854775808, "uint64": 0}"#, as: IntegerWidths.self)
        #expect(low.int8 == .min && low.uint8 == 0 && low.int64 == .min && low.uint64 == 0)
        let high = try decode(#"{"int8": 127, "uint8": 255, "int64": 9223372036854775807, "uint64": 18446744073709551615}"#,
                              as: IntegerWidths.self)
        #expect(high.int8 == .max && high.uint8 == .max && high.int64 == .max && high.uint64 == .max)
        #expect(try decode(#"{"uint8": -0}"#, as: IntegerWidths.self).uint8 == 0)
    }

    /// Integers of up to 15 digits are read without strtod, and an integer below 2^53 decodes from its Double; at
    /// and past both limits the text is read, so every value comes out exact.
    @Test(arguments: [
        999_999_999_999_999, -999_999_999_999_999, 1_000_000_000_000_000, -1_000_000_000_000_000,
        9_007_199_254_740_991, 9_007_199_254_740_992, 9_007_199_254_740_993, -9_007_199_254_740_993,
    ] as [Int64])
    func integersAroundTheFastPathsLimitsDecodeExactly(value: Int64) throws {
        #expect(try decode(#"{"int64": \#(value)}"#, as: IntegerWidths.self).int64 == value)
    }

    @Test(arguments: [
        (#"{"int8": 128}"#, "expected an integer from -128 to 127, found 128"),
        (#"{"int8": -129}"#, "expected an integer from -128 to 127, found -129"),
        (#"{"uint8": -1}"#, "expected an integer from 0 to 255, found -1"),
        (#"{"int64": 9223372036854775808}"#, "expected an integer from \(Int64.min) to \(Int64.max), found 9223372036854775808"),
        (#"{"uint64": 18446744073709551616}"#, "expected an integer from 0 to \(UInt64.max), found 18446744073709551616"),
    ])
    func anIntegerOutOfItsWidthIsNamed(json: String, message: String) {
        #expect(messages(json, as: IntegerWidths.self) == [message])
    }

    @Test(arguments: [3, 16, 17, 200])
    func aRepeatedKeyIsFoundInObjectsOfEverySize(members: Int) {
        let fields = (0..<members).map { "\"k\($0)\": \($0)" } + ["\"k\(members / 2)\": 0"]
        let found = messages("{\(fields.joined(separator: ", "))}", as: [String: Int].self)
        #expect(found == ["field \"k\(members / 2)\" appears more than once"])
    }

    @Test(arguments: [3, 16, 17, 40])
    func everyMemberIsFoundInObjectsOfEverySize(members: Int) throws {
        let fields = (0..<members).map { "\"k\($0)\": \($0 * 10)" }.joined(separator: ", ")
        let decoded = try decode("{\(fields)}", as: ManyAskedKeys.self)
        #expect(decoded.values == Dictionary(uniqueKeysWithValues: (0..<members).map { ("k\($0)", $0 * 10) }))
    }

    @Test func aTypeThatAsksForManyKeysStillGetsUnknownKeysReported() {
        let found = messages(#"{"k3": 3, "k39": 39, "other": 1}"#, as: ManyAskedKeys.self)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix(#"unknown field "other""#) == true)
        #expect(found.first?.contains(#"expected one of "k0", "k1", "k10""#) == true, "\(found)")
        #expect(found.first?.contains("and 20 more") == true, "the forty keys asked are counted, the first twenty named")
    }

    @Test(arguments: ["Nowhere.Missing", "_a.b_1", "A", "Über.Modul", "A.B.C"])
    func aWellFormedTypeNameIsAccepted(name: String) {
        #expect(TypeNameSyntax.isDottedIdentifiers(name))
        let manifest = #"{"modules": [{"type": "\#(name)"}]}"#
        let found = ModuleManager().validateManifest(Data(manifest.utf8))
        #expect(found.map(\.code) == [.unknownType], "\(name) is a type name, just not a linked one")
    }

    @Test(arguments: ["", " ", "1A.B", "A..B", "A.", ".A", "A-B", "A.1B", "A B"])
    func aMalformedTypeNameIsRejected(name: String) {
        #expect(!TypeNameSyntax.isDottedIdentifiers(name))
        let manifest = #"{"modules": [{"type": "\#(name)"}]}"#
        let found = ModuleManager().validateManifest(Data(manifest.utf8))
        #expect(found.map(\.code) == [.invalidValue], "\(name)")
    }
}
