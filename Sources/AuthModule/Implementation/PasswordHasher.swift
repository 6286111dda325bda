import AuthInterface
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Password hashing with the system's crypt(3) (libxcrypt on Linux). No cryptography is
/// implemented here: hashing, salting and salt randomness all come from the C library.
enum PasswordHasher {
    /// A crypt(3) hashing method for new hashes.
    enum Scheme: Sendable, Equatable {
        /// yescrypt (`$y$`). `cost` 1...11; each step doubles the work. libxcrypt's default is 5.
        case yescrypt(cost: Int)
        /// sha512crypt (`$6$`). `rounds` 1000...999_999_999; libxcrypt's default is 5000.
        case sha512(rounds: Int)

        /// The default for new password hashes.
        static let `default` = Scheme.yescrypt(cost: 5)

        var prefix: String {
            switch self {
            case .yescrypt: "$y$"
            case .sha512: "$6$"
            }
        }

        var count: UInt {
            switch self {
            case .yescrypt(let cost): UInt(max(1, min(cost, 11)))
            case .sha512(let rounds): UInt(max(1000, min(rounds, 999_999_999)))
            }
        }
    }

    /// Prefixes of the crypt(3) methods accepted in the configuration: slow, salted ones only.
    static let supportedPrefixes = ["$y$", "$gy$", "$7$", "$2b$", "$2y$", "$2a$", "$6$", "$5$"]

    /// `true` when the system's libxcrypt could be loaded (it supports yescrypt and sha512crypt).
    static var isAvailable: Bool { SystemCrypt.shared != nil }

    /// A new salted hash of `password`, with a fresh random salt from the operating system.
    static func hash(_ password: String, scheme: Scheme = .default) throws(AuthError) -> String {
        guard !password.utf8.contains(0) else {
            throw AuthError(.hashingUnavailable, "a password must not contain NUL characters")
        }
        guard let setting = generateSetting(scheme), let hash = crypt(password, setting: setting) else {
            throw AuthError(.hashingUnavailable, "the system's crypt(3) could not create a \(scheme.prefix) hash")
        }
        return hash
    }

    /// `true` when `password` matches `storedHash`: recomputes crypt(password, storedHash) and
    /// compares the result with the stored hash in constant time.
    static func verify(_ password: String, against storedHash: String) -> Bool {
        // A NUL would silently truncate the C string; still do the work, then reject.
        let containsNUL = password.utf8.contains(0)
        guard let computed = crypt(password, setting: storedHash) else { return false }
        return ConstantTime.equals(computed, storedHash) && !containsNUL
    }

    /// Whether `hash` looks like a hash of a supported slow, salted method. Never echoes the value.
    static func looksLikeSupportedHash(_ hash: String) -> Bool {
        guard supportedPrefixes.contains(where: hash.hasPrefix), hash.utf8.allSatisfy(isHashByte) else { return false }
        // "$id$[params$]salt$checksum": at least prefix, salt and a non-empty checksum.
        let dollar = UInt8(ascii: "$")
        guard hash.utf8.count(where: { $0 == dollar }) >= 3, hash.utf8.last != dollar else { return false }
        return SystemCrypt.shared.map { $0.checkSalt(hash) == SystemCrypt.saltOK } ?? true
    }

    /// The bytes crypt(3) writes in a hash: letters, digits and `./$=,`.
    private static func isHashByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "$"), UInt8(ascii: "="), UInt8(ascii: ","): true
        default: false
        }
    }

    /// crypt(password, setting) through the thread-safe `crypt_rn`; `nil` on failure or without libxcrypt.
    static func crypt(_ password: String, setting: String) -> String? {
        guard let system = SystemCrypt.shared else { return nil }
        let size = SystemCrypt.dataSize
        let data = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        data.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        defer {
            // The work area holds password-derived state; clear it before giving it back.
            memset(data, 0, size)
            data.deallocate()
        }
        guard let result = system.cryptRN(password, setting, data, Int32(size)) else { return nil }
        let hash = String(cString: result)
        // libxcrypt never returns a result starting with "*" on success; be defensive anyway.
        return hash.hasPrefix("*") ? nil : hash
    }

    /// A new setting string ("$y$j9T$<salt>") with random salt read by libxcrypt from the OS.
    private static func generateSetting(_ scheme: Scheme) -> String? {
        guard let system = SystemCrypt.shared else { return nil }
        var output = [CChar](repeating: 0, count: SystemCrypt.settingSize)
        let ok = output.withUnsafeMutableBufferPointer { buffer in
            system.genSaltRN(scheme.prefix, scheme.count, nil, 0, buffer.baseAddress, Int32(buffer.count)) != nil
        }
        guard ok else { return nil }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
