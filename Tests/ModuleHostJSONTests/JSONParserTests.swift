import Testing
@testable import ModuleHostJSON

@Suite("JSON parser")
struct JSONParserTests {
    private func parse(_ text: String) throws(JSONParser.SyntaxError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    @Test func recordsPositionsOfNestedValues() throws {
        let value = try parse("{\n  \"a\": [1, {\"b\": true}],\n  \"c\": \"x\"\n}")
        let array = try #require(value.member("a"))
        #expect(array.location == JSONLocation(line: 2, column: 8))
        guard case .array(let elements) = array.kind else { Issue.record("not an array"); return }
        #expect(elements[1].member("b")?.location == JSONLocation(line: 2, column: 18))
        #expect(value.member("c")?.location == JSONLocation(line: 3, column: 8))
    }

    @Test func decodesStringsAndEscapes() throws {
        let value = try parse(#""a\"b\\c\nd\u00e9\ud83d\ude00""#)
        guard case .string(let text) = value.kind else { Issue.record("not a string"); return }
        #expect(text == "a\"b\\c\nd\u{e9}\u{1F600}")
    }

    @Test func numbersKnowWhetherTheyAreIntegers() throws {
        guard case .number(let whole, let isInteger) = try parse("-42").kind else { Issue.record("not a number"); return }
        #expect(whole == -42 && isInteger)
        guard case .number(let fraction, let fractional) = try parse("2.5e1").kind else { Issue.record("not a number"); return }
        #expect(fraction == 25 && !fractional)
    }

    @Test(arguments: [
        ("{\"a\": }", "expected a value, found character '}'", 1, 7),
        ("[1, 2", "expected ',' or ']', found end of file", 1, 6),
        ("{\"a\" 1}", "expected ':' after field name \"a\", found character '1'", 1, 6),
        ("\"abc", "unterminated string", 1, 5),
        ("[01]", "expected ',' or ']' in array, found character '1'", 1, 3),
        ("{} x", "unexpected character 'x' after the end of the document", 1, 4),
        ("[tru]", "expected a value, found character 't'", 1, 2),
        ("\u{7}", "expected a value, found byte 0x7", 1, 1),
    ])
    func reportsSyntaxErrorsWithPositions(text: String, message: String, line: Int, column: Int) {
        do {
            _ = try parse(text)
            Issue.record("expected a syntax error for \(text)")
        } catch {
            #expect(error.message == message)
            #expect(error.location == JSONLocation(line: line, column: column))
        }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0xFE, 0x22]) }
    }

    @Test func boundsNestingDepthWithoutRecursingForever() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try parse(deep)
            Issue.record("expected a depth error")
        } catch {
            #expect(error.message == "nesting deeper than \(JSONParser.maximumDepth) levels")
        }
    }

    @Test func keepsByteRangesForSubtrees() throws {
        let text = #"{"config": {"x": [1, 2]}, "y": 3}"#
        let value = try parse(text)
        let config = try #require(value.member("config"))
        let slice = String(decoding: Array(text.utf8)[config.byteRange], as: UTF8.self)
        #expect(slice == #"{"x": [1, 2]}"#)
    }
}
