import Testing

@testable import ModuleHost

/// ``TypeNameSyntax`` checks an ASCII type name on its bytes; it must agree with the `Character` definition (a
/// letter or `_`, then letters, digits and `_`, joined by dots; blank is white space only) that it replaced on the
/// start-up path.
@Suite("Type name syntax")
struct TypeNameSyntaxTests {
    private static func isBlankByCharacters(_ name: String) -> Bool {
        name.allSatisfy(\.isWhitespace)
    }

    private static func isDottedIdentifiersByCharacters(_ name: String) -> Bool {
        name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.first, first == "_" || first.isLetter else { return false }
            return part.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
        }
    }

    @Test func everyASCIINameOfUpToTwoCharactersAgrees() {
        let ascii = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        for first in ascii {
            for name in [first] + ascii.map({ first + $0 }) {
                #expect(TypeNameSyntax.isBlank(name) == Self.isBlankByCharacters(name), "\(name.debugDescription)")
                #expect(TypeNameSyntax.isDottedIdentifiers(name) == Self.isDottedIdentifiersByCharacters(name), "\(name.debugDescription)")
            }
        }
    }

    @Test(arguments: ["", " ", "\r\n", "AuthModule.AuthModule", "_a._b1", "a..b", ".a", "a.", "1a", "a1", "a-b", "Ünïcode.Typ",
                      "名前.型", "a\u{301}.b", "e\u{301}", "\u{2003}", " a", "a b", "Swift.Int", "a.b.c.d"])
    func samplesAgree(name: String) {
        #expect(TypeNameSyntax.isBlank(name) == Self.isBlankByCharacters(name))
        #expect(TypeNameSyntax.isDottedIdentifiers(name) == Self.isDottedIdentifiersByCharacters(name))
    }
}
