/// The text of an ABI mark, as ModuleHost's `ABIMark` reads it:
/// `MHABI2 <source digest, 64 lowercase hex> <target triple> <compiler version>`.
///
/// The triple has no spaces and the compiler version goes last, so it may have some. Both are kept to printable
/// ASCII without quotes or backslashes (anything else becomes `?`), so the mark is a plain Swift literal and a
/// plain C string in the plugin's binary.
struct ABIMarkText {
    static let prefix = "MHABI2 "
    /// How the mark of another module a plugin may compile against starts: `MHMOD <module> <source digest>`.
    static let modulePrefix = "MHMOD "

    let digest: String
    let triple: String
    let compiler: String

    init(digest: String, triple: String, compiler: String) {
        self.digest = digest
        self.triple = Self.clean(triple, spaces: false)
        self.compiler = Self.clean(compiler, spaces: true)
    }

    /// The mark.
    var text: String { Self.prefix + digest + " " + triple + " " + compiler }

    private static func clean(_ text: String, spaces: Bool) -> String {
        let kept = text.unicodeScalars.prefix(200).map { scalar -> Character in
            let allowed = (0x21...0x7E).contains(scalar.value) || (spaces && scalar == " ")
            return allowed && scalar != "\"" && scalar != "\\" ? Character(scalar) : "?"
        }
        return kept.isEmpty ? "?" : String(kept)
    }
}
