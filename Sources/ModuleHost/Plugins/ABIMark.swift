/// The ABI mark a plugin carries: the bytes `MHABI1 ` and 64 lowercase hexadecimal digits (the ``ABIIdentity``
/// of the ModuleHost it was built against), in section `modulehost_abi` (ELF) or `__DATA,__modulehost_abi` (Mach-O).
enum ABIMark {
    /// The section's name in an ELF file.
    static let elfSection = "modulehost_abi"
    static let prefix = "MHABI1 "

    /// The identity in a mark's bytes (trailing NUL bytes and one newline ignored), or `nil` when they are not a mark.
    static func identity(in bytes: [UInt8]) -> String? {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0 { end -= 1 }
        if end > 0, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        let text = String(decoding: bytes[..<end], as: UTF8.self)
        guard text.hasPrefix(prefix) else { return nil }
        let identity = String(text.dropFirst(prefix.count))
        guard identity.utf8.count == 64, identity.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            return nil
        }
        return identity
    }

    /// The short form of an identity for messages: its first 12 digits.
    static func short(_ identity: String) -> String { String(identity.prefix(12)) }
}
