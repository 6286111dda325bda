import Foundation
import Testing
@testable import ModuleHost
@testable import ModuleHostJSON

/// Keys made at run time, for configurations whose `init(from:)` asks for keys it computes.
struct AttackKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Asks for `AttackAskedKeys.count` keys with `contains` (a type that probes many optional keys).
struct AttackManyAsks: Decodable {
    nonisolated(unsafe) static var count = 2_000
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AttackKey.self)
        for index in 0..<Self.count { _ = container.contains(AttackKey(stringValue: "k\(index)")) }
    }
}

/// Asks for the fields `k0` … `k99` one by one, all but `k80`.
struct AttackHundredFields: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AttackKey.self)
        for index in 0..<100 where index != 80 { _ = try container.decode(Int.self, forKey: AttackKey(stringValue: "k\(index)")) }
    }
}

/// Any JSON value, decoded recursively (objects through `allKeys`): the usual shape of a free-form config field.
indirect enum AttackAnyJSON: Decodable {
    case object([String: AttackAnyJSON]), array([AttackAnyJSON]), string(String), number(Double), bool(Bool), null

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AttackKey.self) {
            var members: [String: AttackAnyJSON] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(AttackAnyJSON.self, forKey: key) }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [AttackAnyJSON] = []
            while !array.isAtEnd { elements.append(try array.decode(AttackAnyJSON.self)) }
            self = .array(elements)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() { self = .null }
            else if let flag = try? value.decode(Bool.self) { self = .bool(flag) }
            else if let number = try? value.decode(Double.self) { self = .number(number) }
            else { self = .string(try value.decode(String.self)) }
        }
    }
}

/// A config that nests itself, as deep as its JSON goes.
final class AttackNestedConfig: Decodable, Sendable {
    let child: AttackNestedConfig?
}

struct AttackPort: Decodable {
    let port: Int
}

/// The same object decoded twice with different keys, a super decoder, and a nested object probed with `contains`.
struct AttackTwice: Decodable {
    init(from decoder: any Decoder) throws {
        let first = try decoder.container(keyedBy: AttackKey.self)
        _ = try first.decodeIfPresent(Int.self, forKey: AttackKey(stringValue: "one"))
        let second = try decoder.container(keyedBy: AttackKey.self)
        _ = try second.decodeIfPresent(Int.self, forKey: AttackKey(stringValue: "two"))
        let parent = try second.superDecoder(forKey: AttackKey(stringValue: "parent"))
        if let object = try? parent.container(keyedBy: AttackKey.self) {
            _ = object.contains(AttackKey(stringValue: "p"))
        }
    }
}

/// Came from Attack/, an outsider's attack on the config decoding fast paths (added in 9e16303);
/// now filed under the feature it protects.
@Suite("Attack: manifest config decoding", .serialized)
struct ConfigDecodingAttackTests {
    private func diagnostics<T: Decodable>(_ json: String, as type: T.Type) -> [ManifestDiagnostic] {
        do {
            _ = try ModuleConfiguration(json: Data(json.utf8)).decode(type)
            return []
        } catch {
            return error.diagnostics
        }
    }

    private func reportBytes(_ diagnostics: [ManifestDiagnostic]) -> Int {
        diagnostics.reduce(0) { $0 + $1.description.utf8.count }
    }

    // MARK: Findings of the attack review, fixed

    /// A diagnostic's path spells every key above it, and the cap counts diagnostics, not bytes: 1,000 problems under
    /// one long key repeated it 1,000 times (a 40 KB config made a 40 MB report; an 8 MB manifest, ~8 GB). Keys in
    /// paths are cut at 64 bytes, and every field of a diagnostic at 2 KB.
    @Test func aLongKeyAboveManyProblemsKeepsTheReportBounded() {
        let key = String(repeating: "k", count: 40_000)
        let inner = "{" + Array(repeating: #""a": 1"#, count: 1_100).joined(separator: ", ") + "}"
        let json = "{\"\(key)\": \(inner)}"
        let found = diagnostics(json, as: [String: [String: Int]].self)
        #expect(!found.isEmpty)
        let bytes = reportBytes(found)
        #expect(bytes <= 16 * json.utf8.count + 1_000_000, "a \(json.utf8.count)-byte config made a \(bytes)-byte report")
    }

    /// The same through the manifest reader: an operation's overrides under a long operation identifier.
    @Test func aLongOperationKeyAboveManyUnknownFieldsKeepsTheManifestReportBounded() {
        let key = String(repeating: "o", count: 40_000)
        let fields = "{" + (0..<1_100).map { "\"x\($0)\": 1" }.joined(separator: ", ") + "}"
        let manifest = #"{"modules": [{"type": "A.B", "operations": {""# + key + #"": "# + fields + "}}]}"
        let found = ModuleManager().validateManifest(Data(manifest.utf8))
        let bytes = reportBytes(found)
        #expect(bytes <= 16 * manifest.utf8.count + 1_000_000, "a \(manifest.utf8.count)-byte manifest made a \(bytes)-byte report")
    }

    /// "Integers are exact": a number written with a fraction or an exponent used to go through a Double, so
    /// 1.0000000000000001 decoded as the integer 1, and 9007199254740993.0 as 9007199254740992, both silently.
    @Test(arguments: ["1.0000000000000001", "9007199254740993.1", "0.55e1", "1e-1"])
    func aNumberThatIsNotExactlyAnIntegerIsRejected(number: String) throws {
        let found = diagnostics("{\"port\": \(number)}", as: AttackPort.self)
        let decoded = try? ModuleConfiguration(json: Data("{\"port\": \(number)}".utf8)).decode(AttackPort.self)
        let diagnostic = try #require(found.first, "\(number) decoded as the Int \(decoded.map { "\($0.port)" } ?? "?") without a diagnostic")
        // One diagnostic, at the number, saying what was expected and what was found.
        #expect(found.count == 1)
        #expect(diagnostic.code == .invalidConfig)
        #expect(diagnostic.path == "config.port")
        #expect(diagnostic.line == 1 && diagnostic.column == 10, "\(diagnostic)")
        #expect(diagnostic.message.contains("expected an integer from \(Int.min) to \(Int.max), found \(number)"), "\(diagnostic.message)")
    }

    /// A number with a fraction or an exponent that leaves an integer decodes to that integer, exactly.
    @Test(arguments: [("9007199254740993.0", 9_007_199_254_740_993), ("9007199254740993e0", 9_007_199_254_740_993),
                      ("1e3", 1_000), ("12.50e1", 125), ("-4.0", -4), ("0.0e400", 0), ("-9223372036854775808.00", Int.min)])
    func aNumberThatIsExactlyAnIntegerDecodesExactly(number: String, expected: Int) throws {
        let decoded = try ModuleConfiguration(json: Data("{\"port\": \(number)}".utf8)).decode(AttackPort.self)
        #expect(decoded.port == expected)
    }

    /// The exponent was clamped to ±100,000 before the point was moved, so `1` followed by
    /// 100,001 zeros and `e-100001` (exactly 1) was read as 10, and with 200,000 zeros the refusal said "found 1.0".
    @Test(arguments: [100_001, 200_000])
    func aLongMantissaWithALargeExponentIsReadExactly(zeros: Int) throws {
        let one = "1" + String(repeating: "0", count: zeros) + "e-\(zeros)"
        #expect(try ModuleConfiguration(json: Data("{\"port\": \(one)}".utf8)).decode(AttackPort.self).port == 1)
        let tenth = "1" + String(repeating: "0", count: zeros) + "e-\(zeros + 1)"
        #expect(!diagnostics("{\"port\": \(tenth)}", as: AttackPort.self).isEmpty, "0.1 read as an integer")
        let huge = "1" + String(repeating: "0", count: zeros) + "e-\(zeros - 19)"
        #expect(!diagnostics("{\"port\": \(huge)}", as: AttackPort.self).isEmpty, "10^19 fits no Int")
        #expect(try ModuleConfiguration(json: Data("{\"port\": 0e99999999999999999999}".utf8)).decode(AttackPort.self).port == 0)
    }

    /// The unknown-key report names the first twenty fields asked for and counts the rest (it used to list them
    /// all, sorted again, in every problem: 20,000 keys asked and 2,000 unknown fields took 15 s).
    @Test func theUnknownKeyReportNamesTwentyFieldsAndCountsTheRest() {
        AttackManyAsks.count = 1_000
        defer { AttackManyAsks.count = 2_000 }
        let json = "{" + (0..<50).map { "\"zz\($0)\": 1" }.joined(separator: ", ") + "}"
        let found = diagnostics(json, as: AttackManyAsks.self)
        #expect(found.count == 50)
        #expect(found.allSatisfy { $0.message.hasSuffix("and 980 more") }, "\(found.first?.message ?? "")")
    }

    /// Objects whose keys are not ASCII are hashed, never compared pair by pair: Swift compares such strings by
    /// canonical equivalence, a normalisation per comparison (16 long keys, NFC and NFD alternating, cost several
    /// times what hashing them did).
    @Test func onlyFewASCIIKeysAreComparedInOrder() {
        func members(_ keys: [String]) -> [JSONValue.Member] {
            keys.map { JSONValue.Member(key: $0, keyLocation: JSONLocation(line: 1, column: 1),
                                        value: JSONValue(kind: .null, location: JSONLocation(line: 1, column: 1), byteRange: 0..<4)) }
        }
        #expect(JSONValue.comparesKeysInOrder(members((0..<16).map { "k\($0)" })))
        #expect(!JSONValue.comparesKeysInOrder(members((0..<17).map { "k\($0)" })))
        #expect(!JSONValue.comparesKeysInOrder(members(["k", "caf\u{E9}"])))
        #expect(!JSONValue.comparesKeysInOrder(members(["e\u{301}"])))
    }

    /// The parser accepts 512 levels, but decoding a free-form value that deep needed more than 512 KB of stack in
    /// release builds (the size of Apple platforms' secondary threads): the process died of SIGSEGV. A config's
    /// containers may nest 64 levels; a deeper one is a located problem, and decoding stops there. Here a config
    /// 100 levels deep, on a 1 MB stack (a debug build's frames, as tests run, are about twice a release build's).
    @Test func aDeepConfigIsRejectedBeforeItCanOverflowASmallStack() {
        let depth = 100
        let json = String(repeating: #"{"child": "#, count: depth) + "1" + String(repeating: "}", count: depth)
        let done = DispatchSemaphore(value: 0)
        let found = Locked<[ManifestDiagnostic]>([])
        let thread = Thread {
            do {
                _ = try ModuleConfiguration(json: Data(json.utf8)).decode(AttackNestedConfig.self)
            } catch {
                found.withLock { $0 = (error as? ManifestError)?.diagnostics ?? [] }
            }
            done.signal()
        }
        thread.stackSize = 1024 * 1024
        thread.start()
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(found.withLock { $0 }.contains { $0.message.contains("nests more than 64 levels") },
                "\(found.withLock { $0 }.map { "\($0.path): \($0.message)" })")
    }

    // MARK: Held up (pinned: the same diagnostics as the implementation before the change, ad14a58)

    @Test func keysEqualUnderUnicodeNormalisationAreRepeatedKeysInSmallAndLargeObjects() {
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        let small = diagnostics("{\"\(nfc)\": 1, \"\(nfd)\": 2}", as: [String: Int].self)
        #expect(small.map(\.message) == ["field \"\(nfd)\" appears more than once"])
        let filler = (0..<20).map { "\"k\($0)\": 0" }.joined(separator: ", ")
        let large = diagnostics("{\"\(nfc)\": 1, \(filler), \"\(nfd)\": 2}", as: [String: Int].self)
        #expect(large.map(\.message) == ["field \"\(nfd)\" appears more than once"])
    }

    @Test(arguments: [15, 16, 17])
    func repeatedKeysAtTheSmallObjectBoundaryKeepTheirLocation(members: Int) {
        let fields = (0..<members).map { "\"k\($0)\": \($0)" } + ["\"k3\": 99"]
        let json = "{" + fields.joined(separator: ", ") + "}"
        let found = diagnostics(json, as: [String: Int].self)
        #expect(found.map(\.path) == ["config.k3"])
        let column = json.utf8.count - #""k3": 99}"#.utf8.count + 1
        #expect(found.first?.location == ManifestDiagnostic.Location(line: 1, column: column))
    }

    @Test func anObjectDecodedTwiceAndThroughASuperDecoderReportsOnlyKeysNeverAsked() {
        let found = diagnostics(#"{"one": 1, "two": 2, "three": 3, "parent": {"p": 1, "q": 2}}"#, as: AttackTwice.self)
        #expect(found.map(\.path) == ["config.three", "config.parent.q"])
        #expect(found.first?.message.hasSuffix(#"expected one of "one", "parent", "two""#) == true)
    }

    /// The members asked for are noted by index, a bit each for the first 64 and a set past them: a member past the
    /// 64th is known when asked and unknown when not, and a repeated key past it is reported once, as repeated.
    @Test func membersPastTheSixtyFourthAreKnownWhenAskedFor() {
        let fields = (0..<100).map { "\"k\($0)\": \($0)" } + [#""k70": 7"#]
        let found = diagnostics("{" + fields.joined(separator: ", ") + "}", as: AttackHundredFields.self)
        #expect(found.map(\.path) == ["config.k70", "config.k80"])
        #expect(found.last?.message.hasPrefix(#"unknown field "k80""#) == true)
    }

    @Test func anArrayOfObjectsIsCheckedElementByElement() {
        let found = diagnostics(#"[{"port": 1}, {"port": 2, "prot": 3}, {"port": "4"}]"#, as: [AttackPort].self)
        #expect(found.map(\.path) == ["config[2].port"])
        let unknown = diagnostics(#"[{"port": 1}, {"port": 2, "prot": 3}]"#, as: [AttackPort].self)
        #expect(unknown.map(\.path) == ["config[1].prot"])
        #expect(unknown.first?.location == ManifestDiagnostic.Location(line: 1, column: 27))
    }
}
