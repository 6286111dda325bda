#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import ModuleHostSystemLibraries

/// HMAC-SHA256 (RFC 2104) over ``SHA256Digest``: two SHA-256 passes, nothing else implemented here.
///
/// AuthModule signs its session files with it.
enum HMACSHA256 {
    private static let blockSize = 64

    /// The 32-byte MAC of `message` under `key`, or `nil` when the system has no SHA-256.
    static func mac(key: [UInt8], message: [UInt8]) -> [UInt8]? {
        var block = key
        if block.count > blockSize {
            guard let digest = digest(block) else { return nil }
            block = digest
        }
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = digest(block.map { $0 ^ 0x36 } + message)
        guard let inner else { return nil }
        return digest(block.map { $0 ^ 0x5c } + inner)
    }

    private static func digest(_ bytes: [UInt8]) -> [UInt8]? {
        SHA256Digest.hex(of: Data(bytes)).flatMap { Hex.decode($0) }
    }
}
