import Foundation
import Testing
@testable import ModuleHost

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

    // MARK: Findings

    /// FINDING (also before the change): a diagnostic's path spells every key above it, and the cap counts
    /// diagnostics, not bytes, so 1,000 problems under one long key repeat it 1,000 times: a 40 KB config makes a
    /// 40 MB report (an 8 MB manifest, ~8 GB).
    @Test func findingALongKeyAboveManyProblemsMakesTheReportAThousandTimesTheInput() {
        let key = String(repeating: "k", count: 40_000)
        let inner = "{" + Array(repeating: #""a": 1"#, count: 1_100).joined(separator: ", ") + "}"
        let json = "{\"\(key)\": \(inner)}"
        let found = diagnostics(json, as: [String: [String: Int]].self)
        #expect(!found.isEmpty)
        let bytes = reportBytes(found)
        #expect(bytes <= 16 * json.utf8.count + 1_000_000, "a \(json.utf8.count)-byte config made a \(bytes)-byte report")
    }

    /// The same through the manifest reader: an operation's overrides under a long operation identifier.
    @Test func findingALongOperationKeyAboveManyUnknownFieldsMakesAHugeManifestReport() {
        let key = String(repeating: "o", count: 40_000)
        let fields = "{" + (0..<1_100).map { "\"x\($0)\": 1" }.joined(separator: ", ") + "}"
        let manifest = #"{"modules": [{"type": "A.B", "operations": {""# + key + #"": "# + fields + "}}]}"
        let found = ModuleManager().validateManifest(Data(manifest.utf8))
        let bytes = reportBytes(found)
        #expect(bytes <= 16 * manifest.utf8.count + 1_000_000, "a \(manifest.utf8.count)-byte manifest made a \(bytes)-byte report")
    }

    /// FINDING (also before the change): "integers are exact", but a number written with a fraction or an
    /// exponent goes through a Double: 1.0000000000000001 decodes as the integer 1, and 9007199254740993.0 as
    /// 9007199254740992 (a different integer), both silently.
    @Test(arguments: ["1.0000000000000001", "9007199254740993.0", "9007199254740993e0"])
    func findingANonExactNumberDecodesSilentlyAsAnInteger(number: String) {
        let found = diagnostics("{\"port\": \(number)}", as: AttackPort.self)
        let decoded = try? ModuleConfiguration(json: Data("{\"port\": \(number)}".utf8)).decode(AttackPort.self)
        #expect(!found.isEmpty, "\(number) decoded as the Int \(decoded.map { "\($0.port)" } ?? "?") without a diagnostic")
    }

    /// FINDING (new): the unknown-key report re-sorts the keys asked for (twice: for the message and for the
    /// suggestion) for every unknown member, where it sorted them once per object: with k keys asked and u unknown
    /// members it costs O(u·k·log k). Compared with the work the report must do anyway (a suggestion over the
    /// asked keys per unknown member).
    @Test func findingTheUnknownKeyReportSortsTheAskedKeysForEveryUnknownMember() {
        AttackManyAsks.count = 1_000
        defer { AttackManyAsks.count = 2_000 }
        let unknown = (0..<500).map { "zz\($0)" }
        let json = "{" + unknown.map { "\"\($0)\": 1" }.joined(separator: ", ") + "}"
        let asked = (0..<AttackManyAsks.count).map { "k\($0)" }.sorted()
        var expected = 0
        func inherentWork() -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            for key in unknown {
                let message = "expected one of \(asked.map { "\"\($0)\"" }.joined(separator: ", "))"
                expected += message.utf8.count + (Suggestions.closest(to: key, in: asked)?.utf8.count ?? 0)
            }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        }
        let before = inherentWork()
        let start = DispatchTime.now().uptimeNanoseconds
        let found = diagnostics(json, as: AttackManyAsks.self)
        let report = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let baseline = max(before, inherentWork())  // the slower of two runs around it, so load elsewhere counts against the finding
        print("unknown-key report: \(report) ms; the message and suggestion alone: \(baseline) ms (\(expected) bytes)")
        #expect(found.count == 500)
        #expect(report < 1.5 * baseline + 250, "the report took \(report) ms, its inherent work \(baseline) ms")
    }

    /// FINDING (new): objects of at most 16 members are searched in order, comparing pairs of keys, where each
    /// key used to be hashed once. Swift compares strings by canonical equivalence, so two long keys whose bytes
    /// differ from the start (one NFC, one NFD) cost a full normalisation per comparison: an object of 16 such
    /// keys costs several times what it did (8 MB in release builds: 13.7 s against 3.8 s before). Still linear,
    /// with a constant up to ~16. Measured against the same object with all keys NFD (bytes equal up to the last
    /// character, so comparisons are cheap and hashing costs the same): before the change both took the same time.
    @Test func findingSmallObjectsWithLongMixedNormalisationKeysCostSeveralTimesMore() {
        func time(_ alternate: Bool) -> Double {
            let keys = (0..<16).map { index in
                String(repeating: alternate && index % 2 == 0 ? "\u{E9}" : "e\u{301}", count: 20_000) + "\(index)"
            }
            let json = "{" + keys.map { "\"\($0)\": 1" }.joined(separator: ", ") + "}"
            let start = DispatchTime.now().uptimeNanoseconds
            let found = diagnostics(json, as: [String: Int].self)
            #expect(found.isEmpty)
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        }
        _ = time(false)
        let uniform = time(false)
        let mixed = time(true)
        print("16 long keys: all NFD \(uniform) ms; NFC and NFD alternating \(mixed) ms")
        #expect(mixed < 3 * uniform, "alternating forms took \(mixed / uniform)x the time of uniform ones")
    }

    /// FINDING (also before the change): the parser accepts 512 levels, but decoding a free-form value that deep
    /// needs more than 512 KB of stack (macOS's secondary and cooperative threads have 512 KB; musl's default is
    /// 128 KB, where even the parser overflows at 256 levels): the process dies of SIGSEGV. Opt-in (it kills the
    /// test process): ATTACK_CRASH_TESTS=1.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ATTACK_CRASH_TESTS"] != nil))
    func findingADeepConfigOverflowsA512KBThreadStack() {
        let depth = 511
        let json = String(repeating: #"{"child": "#, count: depth) + "1" + String(repeating: "}", count: depth)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            _ = try? ModuleConfiguration(json: Data(json.utf8)).decode(AttackAnyJSON.self)
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        #expect(done.wait(timeout: .now() + 30) == .success)
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
        #expect(found.first?.location == SourceLocation(line: 1, column: column))
    }

    @Test func anObjectDecodedTwiceAndThroughASuperDecoderReportsOnlyKeysNeverAsked() {
        let found = diagnostics(#"{"one": 1, "two": 2, "three": 3, "parent": {"p": 1, "q": 2}}"#, as: AttackTwice.self)
        #expect(found.map(\.path) == ["config.three", "config.parent.q"])
        #expect(found.first?.message.hasSuffix(#"expected one of "one", "parent", "two""#) == true)
    }

    @Test func anArrayOfObjectsIsCheckedElementByElement() {
        let found = diagnostics(#"[{"port": 1}, {"port": 2, "prot": 3}, {"port": "4"}]"#, as: [AttackPort].self)
        #expect(found.map(\.path) == ["config[2].port"])
        let unknown = diagnostics(#"[{"port": 1}, {"port": 2, "prot": 3}]"#, as: [AttackPort].self)
        #expect(unknown.map(\.path) == ["config[1].prot"])
        #expect(unknown.first?.location == SourceLocation(line: 1, column: 27))
    }
}
