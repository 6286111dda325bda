import AuthInterface
import Foundation
import Testing

@testable import AuthModule

@Suite struct PasswordHasherTests {
    @Test func defaultHashRoundTripsAndUsesYescrypt() throws {
        let hash = try AuthModuleTools.hashPassword("wonderland")
        #expect(hash.hasPrefix("$y$"))
        #expect(PasswordHasher.looksLikeSupportedHash(hash))
        #expect(PasswordHasher.verify("wonderland", against: hash))
        #expect(!PasswordHasher.verify("Wonderland", against: hash))
        #expect(!PasswordHasher.verify("", against: hash))
    }

    @Test func hashesAreSalted() throws {
        let first = try PasswordHasher.hash("builder", scheme: .yescrypt(cost: 1))
        let second = try PasswordHasher.hash("builder", scheme: .yescrypt(cost: 1))
        #expect(first != second)
        #expect(PasswordHasher.verify("builder", against: first))
        #expect(PasswordHasher.verify("builder", against: second))
    }

    @Test func sha512cryptIsSupported() throws {
        let hash = try PasswordHasher.hash("builder", scheme: .sha512(rounds: 5000))
        #expect(hash.hasPrefix("$6$"))
        #expect(PasswordHasher.looksLikeSupportedHash(hash))
        #expect(PasswordHasher.verify("builder", against: hash))
        #expect(!PasswordHasher.verify("builder ", against: hash))
    }

    @Test func passwordsWithNULAreRejected() throws {
        #expect(throws: AuthError.self) { try PasswordHasher.hash("a\u{0}b") }
        // "a\0b" would be truncated to "a" by C; it must not match a hash of "a".
        let hash = try PasswordHasher.hash("a", scheme: .yescrypt(cost: 1))
        #expect(PasswordHasher.verify("a", against: hash))
        #expect(!PasswordHasher.verify("a\u{0}b", against: hash))
    }

    @Test func malformedStoredHashesNeverVerify() {
        #expect(!PasswordHasher.verify("secret", against: "secret"))
        #expect(!PasswordHasher.verify("", against: ""))
        #expect(!PasswordHasher.verify("x", against: "$y$"))
        #expect(!PasswordHasher.verify("x", against: "*"))
    }

    @Test(arguments: [
        "wonderland",  // plaintext
        "",
        "$1$abcdefgh$abcdefghijklmnopqrstuv",  // md5crypt: legacy
        "abJnggxhB/yWI",  // DES
        "$y$",  // prefix only
        "$6$salt$",  // no checksum
        "$6$salt$has spaces in it",
        "$6$saltonly",  // no salt field before the checksum
        "$6$salt$caf\u{E9}",  // a letter outside ASCII
    ])
    func unsupportedHashesAreRecognised(_ value: String) {
        #expect(!PasswordHasher.looksLikeSupportedHash(value))
    }

    @Test func constantTimeComparison() {
        #expect(ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 4] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
        #expect(ConstantTime.equals([] as [UInt8], [] as [UInt8]))
        #expect(ConstantTime.equals("abc", "abc"))
        #expect(!ConstantTime.equals("abc", "abd"))
    }
}

@Suite struct SessionTokenTests {
    @Test func tokensAreRandom32ByteHex() {
        let first = SessionToken.generate()
        let second = SessionToken.generate()
        #expect(first != second)
        #expect(first.encoded.count == 64)
        #expect(first.encoded.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(SessionToken(encoded: first.encoded) == first)
    }

    @Test(arguments: ["", "abc", String(repeating: "g", count: 64), String(repeating: "A", count: 64)])
    func malformedEncodingsAreRejected(_ encoded: String) {
        #expect(SessionToken(encoded: encoded) == nil)
    }

    @Test func tokenIsRedactedEverywhere() {
        let token = SessionToken.generate()
        let rendered = allRenderings(of: token)
        #expect(!rendered.contains(token.encoded))
        #expect(rendered.contains("redacted"))
        #expect(Mirror(reflecting: token).children.isEmpty)
    }
}
