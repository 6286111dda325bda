#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// SHA-256 from the system's maintained implementation: OpenSSL's libcrypto on Linux, CommonCrypto on
/// Apple platforms. Both are looked up at run time, so ModuleHost's interface carries no C module and plugins
/// can be compiled against it alone.
public enum SHA256Digest {
    private typealias EVPDigest = @convention(c) (
        UnsafeRawPointer?, Int, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?, OpaquePointer?, OpaquePointer?
    ) -> Int32
    private typealias EVPSHA256 = @convention(c) () -> OpaquePointer?
    private typealias CCSHA256 = @convention(c) (UnsafeRawPointer?, UInt32, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>?

    /// The digest of `data` as 64 lowercase hexadecimal digits, or `nil` when no system implementation is found.
    public static func hex(of data: Data) -> String? {
        var digest = [UInt8](repeating: 0, count: 32)
        #if canImport(Darwin)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -2), "CC_SHA256"), data.count <= Int(UInt32.max) else { return nil }
        let function = unsafeBitCast(symbol, to: CCSHA256.self)
        data.withUnsafeBytes { buffer in
            digest.withUnsafeMutableBufferPointer { output in _ = function(buffer.baseAddress, UInt32(buffer.count), output.baseAddress) }
        }
        #else
        guard let libcrypto = LibCrypto.shared else { return nil }
        let succeeded = data.withUnsafeBytes { buffer in
            digest.withUnsafeMutableBufferPointer { output in
                libcrypto.digest(buffer.baseAddress, buffer.count, output.baseAddress, nil, libcrypto.sha256(), nil) == 1
            }
        }
        guard succeeded else { return nil }
        #endif
        return Hex.encode(digest)
    }

    #if !canImport(Darwin)
    /// libcrypto's two functions, looked up once; C function pointers are safe to share.
    private struct LibCrypto: @unchecked Sendable {
        let digest: EVPDigest
        let sha256: EVPSHA256

        static let shared: LibCrypto? = {
            let names: [String] = ["libcrypto.so.3", "libcrypto.so.1.1", "libcrypto.so"]
            guard let library = SystemLibrary(firstOf: names), let digest = library.function("EVP_Digest", as: EVPDigest.self),
                  let sha256 = library.function("EVP_sha256", as: EVPSHA256.self) else { return nil }
            return LibCrypto(digest: digest, sha256: sha256)
        }()
    }
    #endif

    /// Whether `text` looks like a SHA-256 digest: 64 hexadecimal digits, in either case.
    public static func isWellFormed(_ text: String) -> Bool {
        Hex.decode(text, allowingUppercase: true)?.count == 32
    }
}
