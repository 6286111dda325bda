import Testing
@testable import AuthModule
import ModuleHostSystemLibraries

/// Session files are signed with HMAC-SHA256 over the system's SHA-256; the MAC is checked against the RFC's vectors.
@Suite("Session signing")
struct SessionSigningTests {
    @Test func hmacSHA256MatchesRFC4231() throws {
        // RFC 4231, test case 2.
        let mac = try #require(HMACSHA256.mac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
        #expect(Hex.encode(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a key longer than the block is hashed first.
        let long = try #require(HMACSHA256.mac(key: [UInt8](repeating: 0xaa, count: 131),
                                               message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
        #expect(Hex.encode(long) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}
