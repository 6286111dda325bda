import Testing
@testable import ModuleHostJSON

/// What CONTRACT.md promises the reader refuses and accepts, each case once: the build check (ManifestCheckTool) and
/// the run read manifests with this parser, so these are the answers both give.
@Suite("JSON parser: strict by contract")
struct JSONStrictnessTests {
    @Test(arguments: [
        ("[1, 2,]", "a trailing comma"),
        ("{\"a\": 1,}", "a trailing comma in an object"),
        ("// note\n{}", "a comment"),
        ("/* note */ {}", "a block comment"),
        ("[01]", "a leading zero"),
        ("\"a\u{1}b\"", "a control character in a string"),
        ("\"a\nb\"", "a line break in a string"),
        (#""\uD800""#, "a lone high surrogate"),
        (#""\uD800\u0041""#, "a high surrogate followed by an escape that is not a low surrogate"),
        (#""\uDC00""#, "a lone low surrogate"),
        (#""\x41""#, "an escape JSON does not have"),
        ("{} {}", "a second document"),
        ("", "no document"),
    ])
    func refuses(text: String, what: String) {
        #expect(throws: JSONParser.SyntaxError.self, "\(what) was accepted") { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test func skipsAByteOrderMarkAndCountsColumnsAfterIt() throws {
        let value = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{\"a\": true}".utf8))
        #expect(value.member("a")?.location == JSONLocation(line: 1, column: 7))
    }

    @Test func keepsRepeatedKeysInFileOrderAndTheLastWins() throws {
        let value = try JSONParser.parse(Array(#"{"type": "A.A", "type": "B.B"}"#.utf8))
        guard case .object(let members) = value.kind else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["type", "type"])
        guard case .string(let last)? = value.member("type")?.kind else { Issue.record("no type"); return }
        #expect(last == "B.B")
        var repeated = JSONValue.RepeatedKeys(members)
        #expect(!repeated.isRepeated(at: 0) && repeated.isRepeated(at: 1))
    }
}
