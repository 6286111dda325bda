internal import ModuleHostJSON
/// What a manifest's type name must look like: Swift identifiers joined by dots (`AuthModule.AuthModule`).
///
/// An ASCII name, which nearly every one is, is checked on its bytes: the `Character` properties the general
/// check reads (`isLetter`, `isNumber`, `isWhitespace`) look in Unicode tables whose first use costs more than the
/// whole check. For ASCII the two agree: the letters are `A`–`Z` and `a`–`z`, the numbers `0`–`9`, and the white
/// space tab, line feed, vertical tab, form feed, carriage return and space.
enum TypeNameSyntax {
    /// Whether `name` is empty or only white space.
    static func isBlank(_ name: String) -> Bool {
        ASCIIText.bytes(of: name) { bytes in bytes.allSatisfy { $0 == 0x20 || (0x09...0x0D).contains($0) } }
            ?? name.allSatisfy { $0.isWhitespace }
    }

    /// Whether `name` is Swift identifiers joined by dots: each part a letter or `_` followed by letters, digits
    /// and `_`.
    static func isDottedIdentifiers(_ name: String) -> Bool {
        ASCIIText.bytes(of: name, isDottedIdentifiers)
            ?? name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(isIdentifier)
    }

    private static func isDottedIdentifiers(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var atStartOfPart = true
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                if atStartOfPart { return false }
                atStartOfPart = true
                continue
            }
            let isLetter = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
            guard isLetter || (!atStartOfPart && (0x30...0x39).contains(byte)) else { return false }
            atStartOfPart = false
        }
        return !atStartOfPart
    }

    private static func isIdentifier(_ part: Substring) -> Bool {
        guard let first = part.first, first == "_" || first.isLetter else { return false }
        return part.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
    }
}
