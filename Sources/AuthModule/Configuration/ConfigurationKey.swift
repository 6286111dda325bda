/// Every key of the auth configuration and its user records, any other key found in them, and an index in a coding
/// path: one key type for all of them. Decoding through a key type asks the Swift runtime, the first time, whether it
/// conforms to `CodingKey`, and that question scans every conformance record in the process; one type asks it once
/// instead of three times (a key enum for each of the two records, and one for the keys found), which is a visible
/// share of `app-shell`'s start.
struct ConfigurationKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }

    static let users = Self(stringValue: "users")
    static let usersFile = Self(stringValue: "usersFile")
    static let stateDirectory = Self(stringValue: "stateDirectory")
    static let sessionLifetime = Self(stringValue: "sessionLifetime")
    static let username = Self(stringValue: "username")
    static let displayName = Self(stringValue: "displayName")
    static let passwordHash = Self(stringValue: "passwordHash")

    /// The keyed container of `decoder`, after checking that it has no key but `allowed`; throws
    /// `DecodingError.dataCorrupted` naming the first unknown key (in order of the keys' text) and what was expected.
    static func container(of decoder: any Decoder, allowing allowed: [ConfigurationKey]) throws
        -> KeyedDecodingContainer<ConfigurationKey>
    {
        let container = try decoder.container(keyedBy: ConfigurationKey.self)
        let names = allowed.map(\.stringValue)
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where !names.contains(key.stringValue) {
            let expected = names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath + [key],
                debugDescription: "unknown key \"\(key.stringValue)\" (expected one of \(expected))"))
        }
        return container
    }
}
