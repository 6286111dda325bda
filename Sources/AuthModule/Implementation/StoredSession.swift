import AuthInterface
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleHost
import ModuleHostState
internal import ModuleHostSystemLibraries

/// The persisted form of a session (`session.json`).
///
/// ```json
/// { "format": "app-shell.auth-session", "version": 1, "username": "alice", "token": "<64 hex>",
///   "createdAt": 1700000000.0, "expiresAt": 1700028800.0, "credentialFingerprint": "<...>",
///   "mac": "<64 hex>" }
/// ```
///
/// `credentialFingerprint` binds the session to the user's password hash at log-in time, so
/// changing the password (or removing the user) invalidates stored sessions. `mac` is an HMAC-SHA256 of every
/// other field under the state directory's key (ModuleHostState's `StateKey`, a 0600 file of random bytes): a file
/// written or edited by anyone who cannot read that key (another local user, or an edit of the times of an
/// expired session) is not accepted. The fingerprint alone proves nothing: the hash it derives from is public.
///
/// The token never appears in `description`, `debugDescription` or reflection.
struct StoredSession: Sendable, Equatable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The value of the `format` marker, which identifies our files.
    static let format = "app-shell.auth-session"
    /// The only version this code reads and writes.
    static let currentVersion = 2

    let username: String
    let token: SessionToken
    let createdAt: Date
    let expiresAt: Date
    let credentialFingerprint: String
    /// HMAC-SHA256 of ``signingInput`` under the state directory's key, as lowercase hex; empty until signed.
    private(set) var mac: String

    init(username: String, token: SessionToken, createdAt: Date, expiresAt: Date, credentialFingerprint: String,
         mac: String = "") {
        self.username = username
        self.token = token
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.credentialFingerprint = credentialFingerprint
        self.mac = mac
    }

    // MARK: Signature

    /// Every field but the MAC, each as its length (8 bytes, big-endian) and its UTF-8 bytes, so that no two
    /// sessions have the same input.
    var signingInput: [UInt8] {
        let fields = [
            Self.format, String(Self.currentVersion), username, token.encoded,
            String(describing: createdAt.timeIntervalSince1970), String(describing: expiresAt.timeIntervalSince1970),
            credentialFingerprint,
        ]
        var bytes: [UInt8] = []
        for field in fields {
            let utf8 = Array(field.utf8)
            withUnsafeBytes(of: UInt64(utf8.count).bigEndian) { bytes += $0 }
            bytes += utf8
        }
        return bytes
    }

    /// The session with its MAC under `key`; `nil` when the system has no SHA-256.
    func signed(with key: StateKey) -> StoredSession? {
        guard let mac = HMACSHA256.mac(key: key.bytes, message: signingInput) else { return nil }
        var signed = self
        signed.mac = Hex.encode(mac)
        return signed
    }

    /// `true` when the MAC is the one `key` gives (constant-time comparison).
    func isSigned(by key: StateKey) -> Bool {
        guard let expected = HMACSHA256.mac(key: key.bytes, message: signingInput) else { return false }
        return ConstantTime.equals(Array(Hex.encode(expected).utf8), Array(mac.utf8))
    }

    /// A fingerprint of `passwordHash`, keyed with the session token: sha512crypt (system
    /// crypt(3), 1000 rounds) of the hash string, salted with the token's first 16 hex digits.
    /// Only the checksum part is kept. `nil` when crypt(3) is unavailable.
    static func fingerprint(passwordHash: String, token: SessionToken) -> String? {
        let salt = token.encoded.prefix(16)
        guard let result = PasswordHasher.crypt(passwordHash, setting: "$6$rounds=1000$\(salt)$"),
            let checksum = result.split(separator: "$").last
        else { return nil }
        return String(checksum)
    }

    /// `true` when the session was created for `passwordHash` (constant-time comparison).
    func matches(passwordHash: String) -> Bool {
        guard let expected = Self.fingerprint(passwordHash: passwordHash, token: token) else { return false }
        return ConstantTime.equals(expected, credentialFingerprint)
    }

    // MARK: The file format (the one parser of session files)

    /// Why some bytes are not a usable session file.
    enum Problem: Error, Equatable {
        /// Not JSON at all.
        case notJSON
        /// JSON, but without our `format` marker: someone else's file.
        case foreign
        /// Our format, another version; `found` describes the version, never other content.
        case unsupportedVersion(found: String)
        /// Our format and version, but fields are missing or malformed; `detail` never contains a value.
        case damaged(detail: String?)
    }

    /// Parses a session file: the format marker, then the version, then the fields, in one pass.
    static func decode(_ data: Data) throws(Problem) -> StoredSession {
        do {
            return try decoder.decode(StoredSession.self, from: data)
        } catch let problem as Problem {
            throw problem
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw .notJSON
        } catch let error as DecodingError {
            throw .damaged(detail: describe(error))
        } catch {
            throw .damaged(detail: nil)
        }
    }

    /// The file's content: pretty-printed JSON with sorted keys.
    func encoded() throws -> Data {
        try Self.encoder.encode(self)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()

    private enum CodingKeys: String, CodingKey {
        case format, version, username, token, createdAt, expiresAt, credentialFingerprint, mac
    }

    /// Throws ``Problem/foreign`` or ``Problem/unsupportedVersion(found:)`` for files that are not ours or not of
    /// this version, and `DecodingError` for damaged fields.
    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self),
              (try? container.decodeIfPresent(String.self, forKey: .format)) == Self.format
        else { throw Problem.foreign }
        let version = try? container.decodeIfPresent(Int.self, forKey: .version)
        guard version == Self.currentVersion else {
            throw Problem.unsupportedVersion(found: version.map(String.init) ?? Self.describeVersion(in: container))
        }
        username = try container.decode(String.self, forKey: .username)
        let encodedToken = try container.decode(String.self, forKey: .token)
        guard let token = SessionToken(encoded: encodedToken) else {
            // No value in the message: it would be (part of) a token.
            throw DecodingError.dataCorruptedError(forKey: .token, in: container, debugDescription: "malformed token")
        }
        self.token = token
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        expiresAt = try container.decode(Date.self, forKey: .expiresAt)
        credentialFingerprint = try container.decode(String.self, forKey: .credentialFingerprint)
        mac = try container.decode(String.self, forKey: .mac)
    }

    /// A version that is not an integer: as written if a string or a number, else what kind of value it is.
    private static func describeVersion(in container: KeyedDecodingContainer<CodingKeys>) -> String {
        if let text = try? container.decode(String.self, forKey: .version) { return text }
        if let number = try? container.decode(Double.self, forKey: .version) { return String(number) }
        return container.contains(.version) ? "of an unexpected type" : "none"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.format, forKey: .format)
        try container.encode(Self.currentVersion, forKey: .version)
        try container.encode(username, forKey: .username)
        try container.encode(token.encoded, forKey: .token)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(credentialFingerprint, forKey: .credentialFingerprint)
        try container.encode(mac, forKey: .mac)
    }

    // MARK: Redacted descriptions

    var description: String {
        "StoredSession(username: \(String(reflecting: username)), token: <redacted>, "
            + "createdAt: \(createdAt), expiresAt: \(expiresAt))"
    }

    var debugDescription: String { description }

    var customMirror: Mirror {
        Mirror(
            self,
            children: ["username": username, "createdAt": createdAt, "expiresAt": expiresAt],
            displayStyle: .struct
        )
    }
}
