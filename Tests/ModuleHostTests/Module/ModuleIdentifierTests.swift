import Foundation
import Testing
import ModuleHost

/// An identifier is its text: equal, hashed, ordered and encoded as the text, however it was made.
struct ModuleIdentifierTests {
    @Test func identifiersAreEqualAndHashAlikeExactlyWhenTheirTextsAre() {
        let composed = ModuleIdentifier(rawValue: "caf\u{E9}.module")
        let decomposed = ModuleIdentifier(rawValue: "cafe\u{301}.module")  // the same text, as Swift compares strings
        #expect(composed == decomposed)
        #expect(composed.hashValue == decomposed.hashValue)
        #expect(ModuleIdentifier(rawValue: "a.b") == "a.b")
        #expect(ModuleIdentifier(rawValue: "a.b") != "a.c")
        #expect(ModuleIdentifier(rawValue: "a.b") < "a.c")

        var table: [ModuleIdentifier: Int] = [:]
        for index in 0..<2_000 { table[ModuleIdentifier(rawValue: "module.\(index)")] = index }
        #expect(table.count == 2_000)
        let missing = (0..<2_000).filter { (index: Int) -> Bool in table[ModuleIdentifier(rawValue: "module.\(index)")] != index }
        #expect(missing.isEmpty)
        #expect(table["module.2000"] == nil)
        #expect(Set([composed, decomposed, "other"]).count == 2)
    }

    @Test func anIdentifierEncodesAsItsTextAlone() throws {
        let encoded = try JSONEncoder().encode([ModuleIdentifier(rawValue: "com.example.auth")])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["com.example.auth"]"#)
        let decoded = try JSONDecoder().decode([ModuleIdentifier].self, from: Data(#"["com.example.auth"]"#.utf8))
        #expect(decoded == ["com.example.auth"])
        #expect(decoded.first?.rawValue == "com.example.auth")
    }
}
