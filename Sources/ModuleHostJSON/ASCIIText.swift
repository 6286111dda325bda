/// Checks on a string's bytes, read from its UTF-8 storage in place: walking `String.UTF8View` one index at a time
/// costs more than these checks.
public enum ASCIIText {
    /// `check` applied to the bytes of `text` when every one is ASCII; `nil` when one is not.
    public static func bytes(of text: String, _ check: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool? {
        // Read where the string keeps them, without a copy of the string (a `var` for `withUTF8` retained it); a
        // string whose bytes are not contiguous (one bridged from elsewhere) is made so first.
        let inPlace = text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } ? check(bytes) : nil }
        if let inPlace { return inPlace }
        var text = text
        return text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } ? check(bytes) : nil }
    }

    /// Whether every byte of `text` is ASCII.
    public static func isASCII(_ text: String) -> Bool {
        bytes(of: text) { _ in true } ?? false
    }
}
