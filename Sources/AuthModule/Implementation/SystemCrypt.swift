import ModuleHost
internal import ModuleHostSystemLibraries

/// The three functions of the system's libxcrypt that ``PasswordHasher`` uses, found when first needed.
///
/// The library is loaded at run time (a `SystemLibrary`), so AuthModule builds where libxcrypt's headers
/// are missing and a host that never hashes a password never loads it. Where the library is absent (macOS ships no
/// libxcrypt), ``shared`` is `nil` and hashing is reported unavailable.
struct SystemCrypt: @unchecked Sendable {
    typealias CryptRN = @convention(c) (
        UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?, Int32
    ) -> UnsafeMutablePointer<CChar>?
    typealias GenSaltRN = @convention(c) (
        UnsafePointer<CChar>?, UInt, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<CChar>?, Int32
    ) -> UnsafeMutablePointer<CChar>?
    typealias CheckSalt = @convention(c) (UnsafePointer<CChar>?) -> Int32

    /// `crypt_rn(phrase, setting, data, size)`: the thread-safe crypt(3).
    let cryptRN: CryptRN
    /// `crypt_gensalt_rn(prefix, count, rbytes, nrbytes, output, size)`: a new setting, salted by the OS.
    let genSaltRN: GenSaltRN
    /// `crypt_checksalt(setting)`: ``saltOK`` when the setting names a method the library supports.
    let checkSalt: CheckSalt

    /// `sizeof(struct crypt_data)` in libxcrypt (fixed by its ABI); `crypt_rn` refuses a smaller work area.
    static let dataSize = 32_768
    /// `CRYPT_GENSALT_OUTPUT_SIZE`.
    static let settingSize = 192
    /// `CRYPT_SALT_OK`.
    static let saltOK: Int32 = 0

    /// The library's functions, or `nil` when it cannot be loaded.
    static let shared: SystemCrypt? = {
        guard let library = SystemLibrary(firstOf: ["libcrypt.so.1", "libcrypt.so.2", "libcrypt.so"]),
              let cryptRN = library.function("crypt_rn", as: CryptRN.self),
              let genSaltRN = library.function("crypt_gensalt_rn", as: GenSaltRN.self),
              let checkSalt = library.function("crypt_checksalt", as: CheckSalt.self) else { return nil }
        return SystemCrypt(cryptRN: cryptRN, genSaltRN: genSaltRN, checkSalt: checkSalt)
    }()
}
